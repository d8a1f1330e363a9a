CREATE TABLE `list_counts` (
	`business_id` text NOT NULL,
	`dimension` text NOT NULL,
	`value` text NOT NULL,
	`n` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`business_id`, `dimension`, `value`),
	FOREIGN KEY (`business_id`) REFERENCES `businesses`(`id`) ON UPDATE no action ON DELETE no action
);
