CREATE TABLE "month_risks" (
	"iso" char(3) NOT NULL,
	"month" date NOT NULL,
	"series" json NOT NULL,
	CONSTRAINT "month_risks_iso_month_pk" PRIMARY KEY("iso","month")
);
