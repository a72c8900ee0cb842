CREATE TABLE "job_runs" (
	"queue" text PRIMARY KEY NOT NULL,
	"last_started_at" timestamp with time zone NOT NULL,
	"last_finished_at" timestamp with time zone,
	"last_outcome" text NOT NULL,
	"last_error" text,
	"runs" integer DEFAULT 0 NOT NULL,
	"failures" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "orders" DROP COLUMN "confirmation_due_at";