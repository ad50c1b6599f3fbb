-- CreateTable
CREATE TABLE "KeyUsage" (
    "keyId" TEXT NOT NULL,
    "day" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "servedBy" TEXT NOT NULL,
    "requests" INTEGER NOT NULL DEFAULT 0,
    "promptTokens" BIGINT NOT NULL DEFAULT 0,
    "completionTokens" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "KeyUsage_pkey" PRIMARY KEY ("keyId","day","model","servedBy")
);

-- CreateTable
CREATE TABLE "ServedCompletion" (
    "id" TEXT NOT NULL,
    "keyId" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,
    "model" TEXT NOT NULL,
    "servedBy" TEXT NOT NULL,
    "interface" TEXT NOT NULL,
    "sourceIds" TEXT NOT NULL,
    "references" TEXT NOT NULL,
    "closest" TEXT NOT NULL,
    "refused" BOOLEAN NOT NULL,
    "coverage" DOUBLE PRECISION,
    "question" TEXT,
    "answer" TEXT,
    "rating" TEXT,
    "comment" TEXT,
    "ratedAt" TIMESTAMP(3),

    CONSTRAINT "ServedCompletion_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "KeyUsage_day_idx" ON "KeyUsage"("day");

-- CreateIndex
CREATE INDEX "ServedCompletion_createdAt_idx" ON "ServedCompletion"("createdAt");

