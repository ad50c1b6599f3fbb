-- AlterTable
ALTER TABLE "Source" ADD COLUMN     "lastSync" TEXT,
ADD COLUMN     "lastSyncedAt" TIMESTAMP(3),
ADD COLUMN     "refreshSeconds" INTEGER;

-- CreateTable
CREATE TABLE "SyncLease" (
    "sourceId" TEXT NOT NULL,
    "holder" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "SyncLease_pkey" PRIMARY KEY ("sourceId")
);

-- CreateTable
CREATE TABLE "PageValidator" (
    "sourceId" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "etag" TEXT,
    "lastModified" TEXT,
    "links" TEXT,
    "basis" TEXT NOT NULL,

    CONSTRAINT "PageValidator_pkey" PRIMARY KEY ("sourceId","url")
);

