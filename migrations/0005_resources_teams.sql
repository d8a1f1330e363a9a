CREATE TABLE `booking_providers` (
	`booking_id` text NOT NULL,
	`provider_id` text NOT NULL,
	`business_id` text NOT NULL,
	`start_time` text NOT NULL,
	PRIMARY KEY(`booking_id`, `provider_id`),
	FOREIGN KEY (`booking_id`) REFERENCES `bookings`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`provider_id`) REFERENCES `providers`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`business_id`) REFERENCES `businesses`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `booking_providers_business_provider_start_idx` ON `booking_providers` (`business_id`,`provider_id`,`start_time`,`booking_id`);--> statement-breakpoint
CREATE TABLE `booking_resources` (
	`booking_id` text NOT NULL,
	`resource_id` text NOT NULL,
	`business_id` text NOT NULL,
	`start_time` text NOT NULL,
	PRIMARY KEY(`booking_id`, `resource_id`),
	FOREIGN KEY (`booking_id`) REFERENCES `bookings`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`resource_id`) REFERENCES `resources`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`business_id`) REFERENCES `businesses`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `booking_resources_business_resource_start_idx` ON `booking_resources` (`business_id`,`resource_id`,`start_time`,`booking_id`);--> statement-breakpoint
CREATE TABLE `resources` (
	`id` text PRIMARY KEY NOT NULL,
	`business_id` text NOT NULL,
	`name` text NOT NULL,
	`quantity` integer DEFAULT 1 NOT NULL,
	`timezone` text NOT NULL,
	`weekly_schedule` text,
	`date_overrides` text DEFAULT '[]' NOT NULL,
	`active` integer DEFAULT true NOT NULL,
	`version` integer DEFAULT 1 NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`business_id`) REFERENCES `businesses`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `resources_business_active_idx` ON `resources` (`business_id`,`active`,`id`);--> statement-breakpoint
CREATE TABLE `service_resources` (
	`business_id` text NOT NULL,
	`service_id` text NOT NULL,
	`resource_id` text NOT NULL,
	PRIMARY KEY(`service_id`, `resource_id`),
	FOREIGN KEY (`business_id`) REFERENCES `businesses`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`service_id`) REFERENCES `services`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`resource_id`) REFERENCES `resources`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `service_resources_business_service_idx` ON `service_resources` (`business_id`,`service_id`,`resource_id`);--> statement-breakpoint
CREATE INDEX `service_resources_business_resource_idx` ON `service_resources` (`business_id`,`resource_id`,`service_id`);--> statement-breakpoint
ALTER TABLE `bookings` ADD `provider_ids` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
ALTER TABLE `bookings` ADD `resource_ids` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
ALTER TABLE `services` ADD `provider_mode` text DEFAULT 'one' NOT NULL;--> statement-breakpoint
UPDATE `bookings` SET `provider_ids` = json_array(`provider_id`) WHERE `provider_id` IS NOT NULL;--> statement-breakpoint
INSERT INTO `booking_providers` (`booking_id`, `provider_id`, `business_id`, `start_time`) SELECT `id`, `provider_id`, `business_id`, `start_time` FROM `bookings` WHERE `provider_id` IS NOT NULL;
