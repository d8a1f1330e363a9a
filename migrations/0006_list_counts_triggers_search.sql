-- Hand-written (drizzle-kit generates tables and indexes, not triggers or virtual tables):
-- 1. the triggers that keep list_counts (migration 0005) in the same statement as the booking or
--    customer they count, so every write path (the calendars' write-behind, imports, erasure,
--    a replay that changes nothing) keeps them exact without code of its own;
-- 2. customers_search, an FTS5 trigram index over the lower-cased name and e-mail, kept by
--    triggers in the same statement as the customer, so a substring search reads the matching
--    customers instead of every customer of the business.
-- A person's count ('bookings.providerId') is kept from the booking's link rows, so a team's
-- booking counts for each of its people (migration 0007).
-- See docs/performance.md ("Kept counts" and "Customer search").
CREATE TRIGGER bookings_counts_insert AFTER INSERT ON bookings BEGIN
  INSERT INTO list_counts (business_id, dimension, value, n) VALUES (NEW.business_id, 'bookings', '', 1)
    ON CONFLICT (business_id, dimension, value) DO UPDATE SET n = n + excluded.n;
  INSERT INTO list_counts (business_id, dimension, value, n) SELECT NEW.business_id, 'bookings.status', NEW.status, 1 WHERE true
    ON CONFLICT (business_id, dimension, value) DO UPDATE SET n = n + excluded.n;
  INSERT INTO list_counts (business_id, dimension, value, n) SELECT NEW.business_id, 'bookings.serviceId', NEW.service_id, 1 WHERE true
    ON CONFLICT (business_id, dimension, value) DO UPDATE SET n = n + excluded.n;
  INSERT INTO list_counts (business_id, dimension, value, n) SELECT NEW.business_id, 'bookings.customerId', NEW.customer_id, 1 WHERE true
    ON CONFLICT (business_id, dimension, value) DO UPDATE SET n = n + excluded.n;
END;
--> statement-breakpoint
CREATE TRIGGER bookings_counts_delete AFTER DELETE ON bookings BEGIN
  INSERT INTO list_counts (business_id, dimension, value, n) VALUES (OLD.business_id, 'bookings', '', -1)
    ON CONFLICT (business_id, dimension, value) DO UPDATE SET n = n + excluded.n;
  INSERT INTO list_counts (business_id, dimension, value, n) SELECT OLD.business_id, 'bookings.status', OLD.status, -1 WHERE true
    ON CONFLICT (business_id, dimension, value) DO UPDATE SET n = n + excluded.n;
  INSERT INTO list_counts (business_id, dimension, value, n) SELECT OLD.business_id, 'bookings.serviceId', OLD.service_id, -1 WHERE true
    ON CONFLICT (business_id, dimension, value) DO UPDATE SET n = n + excluded.n;
  INSERT INTO list_counts (business_id, dimension, value, n) SELECT OLD.business_id, 'bookings.customerId', OLD.customer_id, -1 WHERE true
    ON CONFLICT (business_id, dimension, value) DO UPDATE SET n = n + excluded.n;
END;
--> statement-breakpoint
CREATE TRIGGER bookings_counts_update AFTER UPDATE OF business_id, status, service_id, customer_id ON bookings
WHEN OLD.business_id IS NOT NEW.business_id OR OLD.status IS NOT NEW.status OR OLD.service_id IS NOT NEW.service_id
  OR OLD.customer_id IS NOT NEW.customer_id
BEGIN
  INSERT INTO list_counts (business_id, dimension, value, n) VALUES (OLD.business_id, 'bookings', '', -1)
    ON CONFLICT (business_id, dimension, value) DO UPDATE SET n = n + excluded.n;
  INSERT INTO list_counts (business_id, dimension, value, n) SELECT OLD.business_id, 'bookings.status', OLD.status, -1 WHERE true
    ON CONFLICT (business_id, dimension, value) DO UPDATE SET n = n + excluded.n;
  INSERT INTO list_counts (business_id, dimension, value, n) SELECT OLD.business_id, 'bookings.serviceId', OLD.service_id, -1 WHERE true
    ON CONFLICT (business_id, dimension, value) DO UPDATE SET n = n + excluded.n;
  INSERT INTO list_counts (business_id, dimension, value, n) SELECT OLD.business_id, 'bookings.customerId', OLD.customer_id, -1 WHERE true
    ON CONFLICT (business_id, dimension, value) DO UPDATE SET n = n + excluded.n;
  INSERT INTO list_counts (business_id, dimension, value, n) VALUES (NEW.business_id, 'bookings', '', 1)
    ON CONFLICT (business_id, dimension, value) DO UPDATE SET n = n + excluded.n;
  INSERT INTO list_counts (business_id, dimension, value, n) SELECT NEW.business_id, 'bookings.status', NEW.status, 1 WHERE true
    ON CONFLICT (business_id, dimension, value) DO UPDATE SET n = n + excluded.n;
  INSERT INTO list_counts (business_id, dimension, value, n) SELECT NEW.business_id, 'bookings.serviceId', NEW.service_id, 1 WHERE true
    ON CONFLICT (business_id, dimension, value) DO UPDATE SET n = n + excluded.n;
  INSERT INTO list_counts (business_id, dimension, value, n) SELECT NEW.business_id, 'bookings.customerId', NEW.customer_id, 1 WHERE true
    ON CONFLICT (business_id, dimension, value) DO UPDATE SET n = n + excluded.n;
END;
--> statement-breakpoint
CREATE TRIGGER customers_counts_insert AFTER INSERT ON customers WHEN NEW.erased_at IS NULL BEGIN
  INSERT INTO list_counts (business_id, dimension, value, n) VALUES (NEW.business_id, 'customers', '', 1)
    ON CONFLICT (business_id, dimension, value) DO UPDATE SET n = n + excluded.n;
END;
--> statement-breakpoint
CREATE TRIGGER customers_counts_delete AFTER DELETE ON customers WHEN OLD.erased_at IS NULL BEGIN
  INSERT INTO list_counts (business_id, dimension, value, n) VALUES (OLD.business_id, 'customers', '', -1)
    ON CONFLICT (business_id, dimension, value) DO UPDATE SET n = n + excluded.n;
END;
--> statement-breakpoint
CREATE TRIGGER customers_counts_update AFTER UPDATE OF business_id, erased_at ON customers
WHEN OLD.business_id IS NOT NEW.business_id OR (OLD.erased_at IS NULL) <> (NEW.erased_at IS NULL)
BEGIN
  INSERT INTO list_counts (business_id, dimension, value, n) SELECT OLD.business_id, 'customers', '', -1 WHERE OLD.erased_at IS NULL
    ON CONFLICT (business_id, dimension, value) DO UPDATE SET n = n + excluded.n;
  INSERT INTO list_counts (business_id, dimension, value, n) SELECT NEW.business_id, 'customers', '', 1 WHERE NEW.erased_at IS NULL
    ON CONFLICT (business_id, dimension, value) DO UPDATE SET n = n + excluded.n;
END;
--> statement-breakpoint
INSERT INTO list_counts (business_id, dimension, value, n) SELECT business_id, 'bookings', '', count(*) FROM bookings WHERE true GROUP BY business_id
  ON CONFLICT (business_id, dimension, value) DO UPDATE SET n = excluded.n;
--> statement-breakpoint
INSERT INTO list_counts (business_id, dimension, value, n) SELECT business_id, 'bookings.status', status, count(*) FROM bookings WHERE true GROUP BY business_id, status
  ON CONFLICT (business_id, dimension, value) DO UPDATE SET n = excluded.n;
--> statement-breakpoint
INSERT INTO list_counts (business_id, dimension, value, n) SELECT business_id, 'bookings.serviceId', service_id, count(*) FROM bookings WHERE true GROUP BY business_id, service_id
  ON CONFLICT (business_id, dimension, value) DO UPDATE SET n = excluded.n;
--> statement-breakpoint
INSERT INTO list_counts (business_id, dimension, value, n) SELECT business_id, 'bookings.customerId', customer_id, count(*) FROM bookings WHERE true GROUP BY business_id, customer_id
  ON CONFLICT (business_id, dimension, value) DO UPDATE SET n = excluded.n;
--> statement-breakpoint
INSERT INTO list_counts (business_id, dimension, value, n) SELECT business_id, 'customers', '', count(*) FROM customers WHERE erased_at IS NULL GROUP BY business_id
  ON CONFLICT (business_id, dimension, value) DO UPDATE SET n = excluded.n;
--> statement-breakpoint
-- Substring search: the trigram tokenizer indexes every 3 characters, so a phrase query of 3 or
-- more characters finds exactly the values that contain it. case_sensitive 1: the columns and the
-- query are lower-cased by the Worker already, so the index compares them as stored, like instr().
CREATE VIRTUAL TABLE customers_search USING fts5(
  name_normalized, email_normalized, content='customers', content_rowid='rowid', tokenize='trigram case_sensitive 1'
);
--> statement-breakpoint
CREATE TRIGGER customers_search_insert AFTER INSERT ON customers BEGIN
  INSERT INTO customers_search (rowid, name_normalized, email_normalized) VALUES (NEW.rowid, NEW.name_normalized, NEW.email_normalized);
END;
--> statement-breakpoint
CREATE TRIGGER customers_search_delete AFTER DELETE ON customers BEGIN
  INSERT INTO customers_search (customers_search, rowid, name_normalized, email_normalized) VALUES ('delete', OLD.rowid, OLD.name_normalized, OLD.email_normalized);
END;
--> statement-breakpoint
CREATE TRIGGER customers_search_update AFTER UPDATE OF name_normalized, email_normalized ON customers BEGIN
  INSERT INTO customers_search (customers_search, rowid, name_normalized, email_normalized) VALUES ('delete', OLD.rowid, OLD.name_normalized, OLD.email_normalized);
  INSERT INTO customers_search (rowid, name_normalized, email_normalized) VALUES (NEW.rowid, NEW.name_normalized, NEW.email_normalized);
END;
--> statement-breakpoint
INSERT INTO customers_search (customers_search) VALUES ('rebuild');
