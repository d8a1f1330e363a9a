ALTER TABLE `bookings` ADD `answers` text DEFAULT '{}' NOT NULL;--> statement-breakpoint
ALTER TABLE `services` ADD `questions` text DEFAULT '[]' NOT NULL;