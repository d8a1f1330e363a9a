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
CREATE INDEX `holds_key_live_idx` ON `holds` (`api_key_id`,`expires_at`);--> statement-breakpoint
CREATE TABLE `providers` (
	`id` text PRIMARY KEY NOT NULL,
	`business_id` text NOT NULL,
	`name` text NOT NULL,
	`email` text,
	`timezone` text NOT NULL,
	`weekly_schedule` text NOT NULL,
	`date_overrides` text DEFAULT '[]' NOT NULL,
	`active` integer DEFAULT true NOT NULL,
	`version` integer DEFAULT 1 NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`business_id`) REFERENCES `businesses`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `providers_business_active_idx` ON `providers` (`business_id`,`active`,`id`);--> statement-breakpoint
CREATE TABLE `service_providers` (
	`business_id` text NOT NULL,
	`service_id` text NOT NULL,
	`provider_id` text NOT NULL,
	PRIMARY KEY(`service_id`, `provider_id`),
	FOREIGN KEY (`business_id`) REFERENCES `businesses`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`service_id`) REFERENCES `services`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`provider_id`) REFERENCES `providers`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `service_providers_business_provider_idx` ON `service_providers` (`business_id`,`provider_id`,`service_id`);--> statement-breakpoint
CREATE INDEX `service_providers_business_service_idx` ON `service_providers` (`business_id`,`service_id`,`provider_id`);--> statement-breakpoint
ALTER TABLE `bookings` ADD `provider_id` text REFERENCES providers(id);--> statement-breakpoint
CREATE INDEX `bookings_business_provider_start_idx` ON `bookings` (`business_id`,`provider_id`,`start_time`,`id`);--> statement-breakpoint
ALTER TABLE `customers` ADD `erased_at` text;--> statement-breakpoint
ALTER TABLE `services` ADD `date_overrides` text DEFAULT '[]' NOT NULL;