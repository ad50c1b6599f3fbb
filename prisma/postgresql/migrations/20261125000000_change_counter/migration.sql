-- CreateTable
CREATE TABLE "ChangeCounter" (
    "id" INTEGER NOT NULL,
    "value" INTEGER NOT NULL,

    CONSTRAINT "ChangeCounter_pkey" PRIMARY KEY ("id")
);


-- The one row servers poll.
INSERT INTO "ChangeCounter" ("id", "value") VALUES (1, 0);
