/**
 * The heading of a listed kind (tools, resources, prompts): its title, how many are listed, and
 * the button that asks the server for the list again (`<name>-count` and `<name>-refresh` for tests).
 */
export function ListHeading({
  name,
  title,
  count,
  onRefresh,
  disabled,
}: {
  name: string;
  title: string;
  count: number;
  onRefresh: () => void;
  disabled?: boolean;
}) {
  return (
    <div className="flex items-center justify-between gap-2">
      <h2 className="text-sm font-semibold">
        {title}{' '}
        <span className="font-normal text-muted">
          (<span data-testid={`${name}-count`}>{count.toLocaleString('en-US')}</span>)
        </span>
      </h2>
      <button
        type="button"
        data-testid={`${name}-refresh`}
        className="text-xs text-accent hover:underline disabled:opacity-50"
        disabled={disabled}
        onClick={onRefresh}
      >
        Refresh {name}/list
      </button>
    </div>
  );
}
