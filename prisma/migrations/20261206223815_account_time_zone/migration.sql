-- AlterTable
ALTER TABLE "User" ADD COLUMN     "hour12" BOOLEAN,
ADD COLUMN     "timeZone" VARCHAR(64);
