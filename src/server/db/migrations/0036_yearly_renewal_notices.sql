-- Notices of a coming yearly renewal, 30 and 7 days ahead, each sent once per period (decision 0027).
ALTER TABLE "subscriptions" ADD COLUMN "renewal_notices_sent" integer DEFAULT 0 NOT NULL;