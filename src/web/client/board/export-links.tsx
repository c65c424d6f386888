import { CsvImport } from './csv-import';

/** Board settings: the whole board as our own JSON (importable again) or as CSV, downloaded with the session; cards from a CSV. */
export function ExportLinks({ boardId }: { boardId: number }) {
  return (
    <>
      <p class="actions" data-testid="board-export">
        <a class="button" href={`/api/boards/${boardId}/export`} download>
          Export JSON
        </a>
        <a class="button" href={`/api/boards/${boardId}/export?format=csv`} download>
          Export CSV
        </a>
      </p>
      <CsvImport boardId={boardId} />
    </>
  );
}
