-- CreateEnum
CREATE TYPE "TicketCommentAuthor" AS ENUM ('team', 'requester');

-- CreateTable
CREATE TABLE "TicketComment" (
    "id" SERIAL NOT NULL,
    "ticketId" INTEGER NOT NULL,
    "workspaceId" INTEGER NOT NULL,
    "body" TEXT NOT NULL,
    "public" BOOLEAN NOT NULL,
    "author" "TicketCommentAuthor" NOT NULL,
    "userId" INTEGER,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "TicketComment_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "TicketComment_ticketId_id_idx" ON "TicketComment"("ticketId", "id");

-- AddForeignKey
ALTER TABLE "TicketComment" ADD CONSTRAINT "TicketComment_ticketId_fkey" FOREIGN KEY ("ticketId") REFERENCES "Ticket"("id") ON DELETE CASCADE ON UPDATE CASCADE;
