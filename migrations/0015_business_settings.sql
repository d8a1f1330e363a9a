ALTER TABLE `businesses` ADD `slug` text;--> statement-breakpoint
ALTER TABLE `businesses` ADD `timezone` text DEFAULT 'UTC' NOT NULL;--> statement-breakpoint
ALTER TABLE `businesses` ADD `locale` text DEFAULT 'en' NOT NULL;--> statement-breakpoint
ALTER TABLE `businesses` ADD `contact_email` text;--> statement-breakpoint
ALTER TABLE `businesses` ADD `booking_page` text DEFAULT '{"enabled":false}' NOT NULL;--> statement-breakpoint
ALTER TABLE `businesses` ADD `emails` text DEFAULT '{"enabled":false}' NOT NULL;--> statement-breakpoint
ALTER TABLE `businesses` ADD `version` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `businesses_slug_uq` ON `businesses` (`slug`);--> statement-breakpoint
ALTER TABLE `services` ADD `bookable_online` integer DEFAULT false NOT NULL;