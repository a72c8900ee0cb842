-- A number that grows with every catalogue write (decision 0018): an instance that has just answered a write
-- reads it to learn, without waiting for the notification, whether that write changed the catalogue. A sequence
-- is not transactional, so a write rolled back still moves it: that costs one needless clear, never a stale read.
CREATE SEQUENCE "catalogue_version";
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "catalogue_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM nextval('catalogue_version');
  PERFORM pg_notify('catalogue_changed', TG_TABLE_NAME);
  RETURN NULL;
END;
$$;
