CREATE TABLE `holds` (
	`id` text PRIMARY KEY NOT NULL,
	`business_id` text NOT NULL,
	`service_id` text NOT NULL,
	`api_key_id` text NOT NULL,
	`expires_at` text NOT NULL,
	`ended_at` text,
	`created_at` text NOT NULL,
	FOREIGN KEY (`business_id`) REFERENCES `businesses`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`service_id`) REFERENCES `services`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `holds_business_idx` ON `holds` (`business_id`,`id`);--> statement-breakpoint
CREATE INDEX `holds_key_live_idx` ON `holds` (`api_key_id`,`expires_at`);