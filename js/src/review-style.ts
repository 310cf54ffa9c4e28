/** The review queue's styles (views/review.ts), added once per document by review-widget.ts. */
export const REVIEW_CSS = `
.mn-review {
  font-size: 13px;
  line-height: 1.45;
  color: var(--jp-ui-font-color1, inherit);
  padding: 8px 10px;
  border: 1px solid var(--jp-border-color2, rgba(128, 128, 128, 0.45));
  border-radius: 6px;
  outline: none;
}
.mn-review:focus-within {
  border-color: var(--jp-brand-color1, #1976d2);
}
.mn-review-head {
  display: flex;
  flex-wrap: wrap;
  gap: 12px;
  align-items: baseline;
}
.mn-review-progress {
  font-variant-numeric: tabular-nums;
  font-size: 14px;
}
.mn-review-reviewer,
.mn-review-place,
.mn-review-note,
.mn-review-keys,
.mn-review-what {
  opacity: 0.7;
}
.mn-review-note,
.mn-review-keys {
  font-size: 12px;
  margin: 2px 0 6px;
}
.mn-review-block {
  margin: 6px 0;
}
.mn-review-text {
  display: block;
  white-space: pre-wrap;
  overflow-wrap: anywhere;
  max-height: 10em;
  overflow: auto;
}
.mn-review-runs {
  display: grid;
  grid-template-columns: 1fr;
  gap: 8px;
  margin: 8px 0;
}
.mn-review-runs.mn-review-pair {
  grid-template-columns: 1fr 1fr;
}
.mn-review-run-view {
  min-width: 0;
  max-height: 420px;
  overflow: auto;
}
.mn-review-thumb svg {
  vertical-align: -2px;
}
.mn-review-row {
  display: flex;
  flex-wrap: wrap;
  gap: 6px;
  align-items: center;
  margin: 4px 0;
}
.mn-review-what {
  min-width: 64px;
}
.mn-review-button {
  font: inherit;
  font-size: 12px;
  padding: 2px 10px;
  border-radius: 4px;
  border: 1px solid var(--jp-border-color1, #bbb);
  background: var(--jp-layout-color2, #eee);
  color: var(--jp-ui-font-color1, inherit);
  cursor: pointer;
}
.mn-review-button.mn-review-on {
  background: var(--jp-brand-color1, #1976d2);
  border-color: var(--jp-brand-color1, #1976d2);
  color: #fff;
}
.mn-review-comment {
  flex: 1;
  min-width: 240px;
  font: inherit;
  padding: 4px 6px;
  border-radius: 4px;
  border: 1px solid var(--jp-border-color1, #bbb);
  background: var(--jp-layout-color1, #fff);
  color: var(--jp-ui-font-color1, inherit);
}
.mn-review-status {
  font-size: 12px;
  opacity: 0.8;
}
.mn-review-error {
  color: var(--jp-error-color1, #d32f2f);
}
.mn-review-done {
  margin: 8px 0;
  font-weight: 600;
}
.mn-agreement {
  font-size: 13px;
  line-height: 1.45;
  color: var(--jp-ui-font-color1, inherit);
}
.mn-agreement-caption {
  margin: 4px 0 6px;
}
.mn-agreement-matrix {
  border-collapse: collapse;
  font-variant-numeric: tabular-nums;
}
.mn-agreement-matrix th,
.mn-agreement-matrix td {
  border: 1px solid var(--jp-border-color2, rgba(128, 128, 128, 0.45));
  padding: 2px 10px;
  text-align: right;
}
.mn-agreement-corner {
  opacity: 0.7;
  font-weight: normal;
}
.mn-agreement-where {
  margin: 8px 0 2px;
  display: flex;
  gap: 10px;
  align-items: baseline;
}
.mn-agreement-runs {
  margin: 0;
  padding-left: 18px;
}
.mn-agreement-run .mn-agreement-review {
  margin-left: 8px;
  padding: 0 8px;
}
`;
