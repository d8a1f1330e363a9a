ALTER TABLE `businesses` ADD `link_key_version` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE `services` ADD `cancellation_notice_minutes` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `services` ADD `reschedule_notice_minutes` integer DEFAULT 0 NOT NULL;