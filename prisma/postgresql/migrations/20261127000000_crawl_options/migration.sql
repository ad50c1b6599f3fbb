-- AlterTable
ALTER TABLE "Source" ADD COLUMN     "crawlOptions" TEXT;
