CREATE TABLE `passkey_challenges` (
	`id` text PRIMARY KEY NOT NULL,
	`purpose` text NOT NULL,
	`session_id` text,
	`client_hash` text NOT NULL,
	`created_at` text NOT NULL,
	`expires_at` text NOT NULL,
	`used_at` text
);
--> statement-breakpoint
CREATE INDEX `passkey_challenges_client_idx` ON `passkey_challenges` (`client_hash`,`created_at`);--> statement-breakpoint
CREATE INDEX `passkey_challenges_session_idx` ON `passkey_challenges` (`session_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `passkeys` (
	`id` text PRIMARY KEY NOT NULL,
	`business_id` text NOT NULL,
	`credential_id` text NOT NULL,
	`member_id` text NOT NULL,
	`name` text NOT NULL,
	`public_key` text NOT NULL,
	`counter` integer NOT NULL,
	`transports` text NOT NULL,
	`created_at` text NOT NULL,
	`last_used_at` text,
	FOREIGN KEY (`business_id`) REFERENCES `businesses`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `passkeys_credential_uq` ON `passkeys` (`credential_id`);--> statement-breakpoint
CREATE INDEX `passkeys_member_idx` ON `passkeys` (`member_id`);