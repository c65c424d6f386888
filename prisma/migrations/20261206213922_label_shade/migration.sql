-- CreateEnum
CREATE TYPE "LabelShade" AS ENUM ('light', 'dark');

-- AlterTable
ALTER TABLE "Label" ADD COLUMN     "shade" "LabelShade";
