CREATE TABLE `waitlist_entries` (
	`id` text PRIMARY KEY NOT NULL,
	`business_id` text NOT NULL,
	`service_id` text NOT NULL,
	`api_key_id` text NOT NULL,
	`created_at` text NOT NULL,
	FOREIGN KEY (`business_id`) REFERENCES `businesses`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`service_id`) REFERENCES `services`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `waitlist_entries_business_idx` ON `waitlist_entries` (`business_id`,`id`);--> statement-breakpoint
CREATE INDEX `waitlist_entries_key_idx` ON `waitlist_entries` (`api_key_id`,`created_at`);