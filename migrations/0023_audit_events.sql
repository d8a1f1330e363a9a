CREATE TABLE `audit_events` (
	`id` text PRIMARY KEY NOT NULL,
	`business_id` text NOT NULL,
	`at` text NOT NULL,
	`actor_type` text NOT NULL,
	`actor_id` text NOT NULL,
	`action` text NOT NULL,
	`resource_type` text NOT NULL,
	`resource_id` text NOT NULL,
	`fields` text NOT NULL,
	FOREIGN KEY (`business_id`) REFERENCES `businesses`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `audit_events_business_idx` ON `audit_events` (`business_id`,`id`);--> statement-breakpoint
CREATE INDEX `audit_events_resource_idx` ON `audit_events` (`business_id`,`resource_id`,`id`);--> statement-breakpoint
CREATE INDEX `audit_events_actor_idx` ON `audit_events` (`business_id`,`actor_id`,`id`);--> statement-breakpoint
CREATE INDEX `audit_events_at_idx` ON `audit_events` (`at`);