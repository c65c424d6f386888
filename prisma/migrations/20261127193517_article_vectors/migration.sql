-- CreateTable
CREATE TABLE "ArticleVector" (
    "articleId" INTEGER NOT NULL,
    "workspaceId" INTEGER NOT NULL,
    "model" VARCHAR(100) NOT NULL,
    "contentHash" CHAR(64) NOT NULL,
    "vectors" BYTEA NOT NULL,
    "count" INTEGER NOT NULL,
    "dimensions" INTEGER NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ArticleVector_pkey" PRIMARY KEY ("articleId","model")
);

-- CreateIndex
CREATE INDEX "ArticleVector_workspaceId_model_idx" ON "ArticleVector"("workspaceId", "model");

-- AddForeignKey
ALTER TABLE "ArticleVector" ADD CONSTRAINT "ArticleVector_articleId_fkey" FOREIGN KEY ("articleId") REFERENCES "Article"("id") ON DELETE CASCADE ON UPDATE CASCADE;
