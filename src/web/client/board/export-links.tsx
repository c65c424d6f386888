/** Board settings: the whole board as our own JSON (importable again) or as CSV, downloaded with the session. */
export function ExportLinks({ boardId }: { boardId: number }) {
  return (
    <p class="actions" data-testid="board-export">
      <a class="button" href={`/api/boards/${boardId}/export`} download>
        Export JSON
      </a>
      <a class="button" href={`/api/boards/${boardId}/export?format=csv`} download>
        Export CSV
      </a>
    </p>
  );
}
