CREATE TABLE "country_months" (
	"iso" char(3) NOT NULL,
	"month" date NOT NULL,
	"points" json NOT NULL,
	CONSTRAINT "country_months_iso_month_pk" PRIMARY KEY("iso","month")
);
--> statement-breakpoint
CREATE TABLE "sealed_months" (
	"month" date PRIMARY KEY NOT NULL
);
