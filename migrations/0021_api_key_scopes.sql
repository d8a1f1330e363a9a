ALTER TABLE `api_keys` ADD `name` text;--> statement-breakpoint
ALTER TABLE `api_keys` ADD `scopes` text;