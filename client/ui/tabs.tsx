/**
 * A row of tabs that filter what is shown below them: each is a button with role="tab" and
 * aria-selected, in a labelled tablist. `tabs` lists the values, or [value, label] pairs where the
 * label differs from the value.
 */
export function Tabs<T extends string>({
  label,
  tabs,
  selected,
  onSelect,
  disabled = false,
}: {
  label: string;
  tabs: readonly (T | readonly [T, string])[];
  selected: T;
  onSelect: (tab: T) => void;
  disabled?: boolean;
}) {
  return (
    <div className="tabs" role="tablist" aria-label={label}>
      {tabs.map((tab) => {
        const [value, text] = typeof tab === 'string' ? [tab, tab] : tab;
        return (
          <button
            key={value}
            type="button"
            role="tab"
            className="tab"
            aria-selected={selected === value}
            onClick={() => onSelect(value)}
            disabled={disabled}
          >
            {text}
          </button>
        );
      })}
    </div>
  );
}
