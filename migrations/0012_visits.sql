ALTER TABLE `bookings` ADD `appointment_id` text;--> statement-breakpoint
CREATE INDEX `bookings_business_appointment_idx` ON `bookings` (`business_id`,`appointment_id`);