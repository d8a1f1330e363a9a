CREATE TABLE `booking_conflicts` (
	`booking_id` text NOT NULL,
	`source_id` text NOT NULL,
	`kind` text NOT NULL,
	`business_id` text NOT NULL,
	`detected_at` text NOT NULL,
	`detail` text NOT NULL,
	`cleared_at` text,
	`version` integer NOT NULL,
	PRIMARY KEY(`booking_id`, `source_id`, `kind`),
	FOREIGN KEY (`business_id`) REFERENCES `businesses`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `booking_conflicts_business_open_idx` ON `booking_conflicts` (`business_id`,`cleared_at`,`booking_id`);