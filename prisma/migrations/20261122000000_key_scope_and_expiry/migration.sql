-- AlterTable
ALTER TABLE "ApiKey" ADD COLUMN "expiresAt" DATETIME;
ALTER TABLE "ApiKey" ADD COLUMN "sourceIds" TEXT;

