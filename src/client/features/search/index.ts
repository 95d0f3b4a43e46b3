export { QuickSwitcher } from './QuickSwitcher';
export { Snippet } from './Snippet';
export { useLibrary, useSearch } from './queries';
export { useDebouncedValue } from './use-debounced-value';
