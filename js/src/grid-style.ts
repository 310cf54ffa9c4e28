/** The grid's styles (views/grid.ts), added once per document by grid-widget.ts. */
export const GRID_CSS = `
.mn-grid {
  font-size: 12px;
  line-height: 1.4;
  color: var(--jp-ui-font-color1, inherit);
}
.mn-grid-pager {
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: 6px;
  margin: 6px 0;
}
.mn-grid-pager button,
.mn-grid-pager select,
.mn-grid-pager input {
  font: inherit;
  font-size: 12px;
  padding: 2px 8px;
  border-radius: 4px;
  border: 1px solid var(--jp-border-color1, #bbb);
  background: var(--jp-layout-color2, #eee);
  color: var(--jp-ui-font-color1, inherit);
}
.mn-grid-pager input {
  background: var(--jp-layout-color1, #fff);
  min-width: 220px;
}
.mn-grid-pager button:not(:disabled),
.mn-grid-open:not(:disabled) {
  cursor: pointer;
}
.mn-grid-pager button:disabled,
.mn-grid-open:disabled {
  opacity: 0.45;
  cursor: default;
}
.mn-grid-where {
  padding: 0 4px;
  font-variant-numeric: tabular-nums;
}
.mn-grid-note {
  color: var(--jp-warn-color0, #b8860b);
}
.mn-grid-tiles {
  display: grid;
  grid-template-columns: repeat(auto-fill, minmax(300px, 1fr));
  gap: 8px;
}
.mn-grid-table {
  width: 100%;
  border-collapse: separate;
  border-spacing: 6px;
  table-layout: fixed;
  margin: 0 -6px;
}
.mn-grid-table th {
  text-align: left;
  vertical-align: top;
  font-weight: 600;
}
.mn-grid-table th.mn-grid-input {
  font-weight: normal;
  padding: 6px 4px;
  overflow-wrap: anywhere;
}
.mn-grid-table thead th:first-child {
  width: 22%;
}
.mn-grid-cell {
  vertical-align: top;
  padding: 0;
}
.mn-grid-number,
.mn-grid-repeat,
.mn-grid-subtitle,
.mn-grid-expected {
  opacity: 0.65;
}
.mn-grid-repeat {
  margin-right: 2px;
}
.mn-grid-tile {
  box-sizing: border-box;
  height: 100%;
  padding: 6px 8px;
  border: 1px solid var(--jp-border-color2, rgba(128, 128, 128, 0.45));
  border-radius: 6px;
  background: var(--jp-layout-color1, transparent);
  overflow: hidden;
  overflow-wrap: anywhere;
  contain: content;
}
.mn-grid-target {
  outline: 2px solid var(--jp-brand-color1, #4493f8);
}
.mn-grid-tile-head {
  margin-bottom: 4px;
}
.mn-grid-title {
  font-weight: 600;
  white-space: nowrap;
  overflow: hidden;
  text-overflow: ellipsis;
}
.mn-grid-subtitle {
  font-size: 11px;
}
.mn-grid-run + .mn-grid-run {
  margin-top: 6px;
  padding-top: 6px;
  border-top: 1px dashed rgba(128, 128, 128, 0.35);
}
code.mn-grid-badge {
  display: inline-block;
  font-family: var(--jp-ui-font-family, inherit) !important; /* a badge, not code: <code> only for the saved notebook */
  padding: 0 6px;
  margin: 1px 0;
  border-radius: 9px;
  font-size: 11px;
  line-height: 17px;
  background: rgba(128, 128, 128, 0.18);
  color: inherit;
}
.mn-grid-tone-ok { background: rgba(46, 160, 67, 0.22) !important; }
.mn-grid-tone-error { background: rgba(248, 81, 73, 0.25) !important; }
.mn-grid-tone-warn { background: rgba(210, 153, 34, 0.28) !important; }
.mn-grid-tone-active { background: rgba(56, 139, 253, 0.22) !important; }
.mn-grid-answer {
  display: -webkit-box;
  -webkit-line-clamp: 3;
  -webkit-box-orient: vertical;
  overflow: hidden;
  margin: 3px 0;
  opacity: 0.9;
  white-space: normal;
}
.mn-grid-feedback {
  margin: 3px 0;
  padding: 2px 6px;
  border-left: 3px solid rgba(128, 128, 128, 0.45);
  white-space: pre-wrap;
}
.mn-grid-label {
  font-weight: 600;
}
.mn-grid-open {
  font: inherit;
  font-size: 11px;
  padding: 1px 8px;
  margin-top: 3px;
  border-radius: 4px;
  border: 1px solid var(--jp-border-color1, #bbb);
  background: var(--jp-layout-color2, #eee);
  color: var(--jp-ui-font-color1, inherit);
}
.mn-grid-fork {
  margin: 0 0 4px;
  padding: 2px 6px;
  border-radius: 4px;
  background: rgba(210, 153, 34, 0.16);
  font-size: 11px;
}
.mn-grid-step {
  margin: 3px 0;
  padding: 1px 6px;
  border-left: 3px solid rgba(210, 153, 34, 0.7);
  font-family: var(--jp-code-font-family, monospace);
  font-size: 11px;
  white-space: nowrap;
  overflow: hidden;
  text-overflow: ellipsis;
}
.mn-grid-table thead th.mn-grid-verdict-head {
  width: 16%;
}
.mn-grid-verdict {
  vertical-align: top;
  padding: 6px 8px;
  border: 1px dashed var(--jp-border-color2, rgba(128, 128, 128, 0.45));
  border-radius: 6px;
  overflow-wrap: anywhere;
}
.mn-grid-verdict-run + .mn-grid-verdict-run {
  margin-top: 4px;
}
.mn-grid-verdict-run > summary {
  cursor: pointer;
}
.mn-grid-verdict-arrow {
  opacity: 0.75;
}
.mn-grid-verdict-note,
.mn-grid-verdict-none {
  font-size: 11px;
  opacity: 0.7;
}
.mn-grid-reason {
  margin: 2px 0 2px 12px;
  font-size: 11px;
  white-space: pre-wrap;
}
.mn-grid-reason-head {
  opacity: 0.75;
}
.mn-grid-empty {
  padding: 12px 4px;
  opacity: 0.75;
}
`;
