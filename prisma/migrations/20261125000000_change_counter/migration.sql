-- CreateTable
CREATE TABLE "ChangeCounter" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "value" INTEGER NOT NULL
);


-- The one row servers poll.
INSERT INTO "ChangeCounter" ("id", "value") VALUES (1, 0);
