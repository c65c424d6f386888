-- AlterTable
ALTER TABLE "Comment" ALTER COLUMN "authorId" DROP NOT NULL;

-- AlterTable
ALTER TABLE "Ticket" ADD COLUMN     "cardId" INTEGER;

-- AlterTable
ALTER TABLE "Workspace" ADD COLUMN     "ticketsBoardId" INTEGER,
ADD COLUMN     "ticketsListId" INTEGER,
ADD COLUMN     "ticketsSolvedListId" INTEGER;

-- CreateIndex
CREATE UNIQUE INDEX "Ticket_cardId_key" ON "Ticket"("cardId");

-- AddForeignKey
ALTER TABLE "Workspace" ADD CONSTRAINT "Workspace_ticketsBoardId_fkey" FOREIGN KEY ("ticketsBoardId") REFERENCES "Board"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Workspace" ADD CONSTRAINT "Workspace_ticketsListId_fkey" FOREIGN KEY ("ticketsListId") REFERENCES "List"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Workspace" ADD CONSTRAINT "Workspace_ticketsSolvedListId_fkey" FOREIGN KEY ("ticketsSolvedListId") REFERENCES "List"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Ticket" ADD CONSTRAINT "Ticket_cardId_fkey" FOREIGN KEY ("cardId") REFERENCES "Card"("id") ON DELETE SET NULL ON UPDATE CASCADE;
