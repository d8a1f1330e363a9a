ALTER TABLE `providers` ADD `limits` text DEFAULT '{}' NOT NULL;--> statement-breakpoint
ALTER TABLE `services` ADD `limits` text DEFAULT '{}' NOT NULL;--> statement-breakpoint
ALTER TABLE `services` ADD `max_active_per_customer` integer;--> statement-breakpoint
ALTER TABLE `services` ADD `assignment` text DEFAULT 'first' NOT NULL;