-- AlterTable
ALTER TABLE "Source" ADD COLUMN "lastSync" TEXT;
ALTER TABLE "Source" ADD COLUMN "lastSyncedAt" DATETIME;
ALTER TABLE "Source" ADD COLUMN "refreshSeconds" INTEGER;

-- CreateTable
CREATE TABLE "SyncLease" (
    "sourceId" TEXT NOT NULL PRIMARY KEY,
    "holder" TEXT NOT NULL,
    "expiresAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "PageValidator" (
    "sourceId" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "etag" TEXT,
    "lastModified" TEXT,
    "links" TEXT,
    "basis" TEXT NOT NULL,

    PRIMARY KEY ("sourceId", "url")
);

