import { Fragment, useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';

/**
 * A windowed grid on the page's own scroll: only the rows near the viewport are in the DOM, so a
 * board of 10,000 gigs draws as fast as one of 50. Cells have a fixed height (`rowHeight`
 * includes the gap); the column count follows the container's width like the CSS grid's
 * `repeat(auto-fill, minmax(minColumn, 1fr))`.
 */
export function VirtualGrid<T>({
  items,
  rowHeight,
  minColumn,
  gap,
  overscanRows = 4,
  label,
  renderItem,
  itemKey,
}: {
  items: T[];
  rowHeight: number;
  minColumn: number;
  gap: number;
  overscanRows?: number;
  label: string;
  /** One `<li>` per item. */
  renderItem: (item: T) => ReactNode;
  itemKey: (item: T) => string;
}) {
  const ref = useRef<HTMLUListElement>(null);
  const [columns, setColumns] = useState(1);
  const [range, setRange] = useState({ first: 0, last: 12 });

  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const measure = () => {
      const width = el.clientWidth;
      setColumns(Math.max(1, Math.floor((width + gap) / (minColumn + gap))));
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, [gap, minColumn]);

  useEffect(() => {
    const onScroll = () => {
      const el = ref.current;
      if (!el) return;
      const top = el.getBoundingClientRect().top;
      const firstVisible = Math.floor(Math.max(0, -top) / rowHeight);
      const visibleRows = Math.ceil(window.innerHeight / rowHeight) + 1;
      const first = Math.max(0, firstVisible - overscanRows);
      const last = firstVisible + visibleRows + overscanRows;
      setRange((r) => (r.first === first && r.last === last ? r : { first, last }));
    };
    onScroll();
    window.addEventListener('scroll', onScroll, { passive: true });
    window.addEventListener('resize', onScroll);
    return () => {
      window.removeEventListener('scroll', onScroll);
      window.removeEventListener('resize', onScroll);
    };
  }, [rowHeight, overscanRows, items.length]);

  const rows = Math.ceil(items.length / columns);
  const firstRow = Math.min(range.first, Math.max(0, rows - 1));
  const lastRow = Math.min(range.last, rows - 1);
  const shown = items.slice(firstRow * columns, (lastRow + 1) * columns);
  return (
    <ul
      ref={ref}
      className="gig-list gig-list--virtual"
      aria-label={label}
      style={{
        gridTemplateColumns: `repeat(${columns}, minmax(0, 1fr))`,
        gridAutoRows: `${rowHeight - gap}px`,
        paddingTop: firstRow * rowHeight,
        paddingBottom: Math.max(0, rows - lastRow - 1) * rowHeight,
      }}
    >
      {shown.map((item) => (
        <Fragment key={itemKey(item)}>{renderItem(item)}</Fragment>
      ))}
    </ul>
  );
}
