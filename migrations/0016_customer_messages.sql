CREATE TABLE `messages` (
	`id` text PRIMARY KEY NOT NULL,
	`business_id` text NOT NULL,
	`booking_id` text NOT NULL,
	`group_id` text,
	`event_id` text NOT NULL,
	`kind` text NOT NULL,
	`recipient` text NOT NULL,
	`subject` text,
	`status` text NOT NULL,
	`reason` text,
	`detail` text,
	`plan` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`lease_until` text,
	`hour` text,
	`message_id_header` text,
	`created_at` text NOT NULL,
	`sent_at` text,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`business_id`) REFERENCES `businesses`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `messages_business_booking_idx` ON `messages` (`business_id`,`booking_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `messages_business_group_idx` ON `messages` (`business_id`,`group_id`);--> statement-breakpoint
CREATE INDEX `messages_event_idx` ON `messages` (`event_id`);--> statement-breakpoint
CREATE INDEX `messages_business_hour_idx` ON `messages` (`business_id`,`hour`);