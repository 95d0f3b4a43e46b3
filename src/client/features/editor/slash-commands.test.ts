import { describe, expect, it } from 'vitest';
import {
  SLASH_COMMANDS,
  customSlashCommand,
  filterSlashCommands,
  groupSlashCommands,
  isCustomCommand,
  paletteKeyAction,
} from './slash-commands';

const titles = (query: string) => filterSlashCommands(query).map((c) => c.title);

describe('slash-command palette', () => {
  it('lists both groups with their commands and shortcut labels', () => {
    const sections = groupSlashCommands(filterSlashCommands(''));
    expect(sections.map((s) => s.group)).toEqual(['Basic Blocks', 'AI Commands']);
    expect(sections[0]?.items.map((i) => i.command.title)).toEqual([
      'Text',
      'Heading 1',
      'Heading 2',
      'Heading 3',
      'Bullet List',
      'Numbered List',
      'Quote',
      'Code Block',
      'Divider',
      'To-do List',
      'Table',
      'Image',
      'Footnote',
    ]);
    expect(sections[1]?.items.map((i) => i.command.title)).toEqual([
      'AI Complete',
      'AI Rewrite',
      'AI Summarize',
      'AI Assistant',
    ]);
    expect(SLASH_COMMANDS.flatMap((c) => (c.shortcut ? [c.shortcut] : []))).toEqual([
      'Ctrl+Alt+0',
      'Ctrl+Alt+1',
      'Ctrl+Alt+2',
      'Ctrl+Alt+3',
      'Ctrl+Shift+8',
      'Ctrl+Shift+7',
      'Ctrl+Shift+B',
      'Ctrl+Alt+C',
      'Ctrl+Alt+F',
      'Ctrl+Shift+Enter',
      'Ctrl+R',
      'Ctrl+/',
    ]);
    // Every labelled shortcut has a key binding.
    for (const command of SLASH_COMMANDS) expect(Boolean(command.shortcut)).toBe(Boolean(command.keymap));
  });

  it('filters case-insensitively on titles and keywords', () => {
    expect(titles('head')).toEqual(['Heading 1', 'Heading 2', 'Heading 3']);
    expect(titles('HEADING 2')).toEqual(['Heading 2']);
    expect(titles('h2')).toEqual(['Heading 2']);
    expect(titles('list')).toEqual(['Bullet List', 'Numbered List', 'To-do List']);
    expect(titles('todo')).toEqual(['To-do List']);
    expect(titles('table')).toEqual(['Table']);
    expect(titles('screenshot')).toEqual(['Image']);
    expect(titles('ai sum')).toEqual(['AI Summarize']);
    expect(titles('  ')).toHaveLength(SLASH_COMMANDS.length);
    expect(titles('zzz')).toEqual([]);
  });

  it('keeps flat indexes when grouping a filtered list', () => {
    const sections = groupSlashCommands(filterSlashCommands('code'));
    expect(sections.map((s) => s.group)).toEqual(['Basic Blocks']);
    expect(sections[0]?.items).toEqual([{ command: expect.objectContaining({ id: 'codeBlock' }), index: 0 }]);
  });

  it('moves the highlight with the arrow keys, wrapping at both ends', () => {
    expect(paletteKeyAction('ArrowDown', { query: '', selectedIndex: 0, itemCount: 3 })).toEqual({
      type: 'move',
      index: 1,
    });
    expect(paletteKeyAction('ArrowDown', { query: '', selectedIndex: 2, itemCount: 3 })).toEqual({
      type: 'move',
      index: 0,
    });
    expect(paletteKeyAction('ArrowUp', { query: '', selectedIndex: 0, itemCount: 3 })).toEqual({
      type: 'move',
      index: 2,
    });
    expect(paletteKeyAction('ArrowUp', { query: 'x', selectedIndex: 0, itemCount: 0 })).toEqual({
      type: 'move',
      index: 0,
    });
  });

  it('runs the highlighted command on Enter and closes when nothing matches', () => {
    expect(paletteKeyAction('Enter', { query: 'h', selectedIndex: 1, itemCount: 3 })).toEqual({
      type: 'run',
      index: 1,
    });
    expect(paletteKeyAction('Enter', { query: 'zzz', selectedIndex: 0, itemCount: 0 })).toEqual({
      type: 'close',
      consume: true,
    });
  });

  it('closes on Escape, and on Backspace only when the filter is empty', () => {
    expect(paletteKeyAction('Escape', { query: 'he', selectedIndex: 0, itemCount: 3 })).toEqual({
      type: 'close',
      consume: true,
    });
    expect(paletteKeyAction('Backspace', { query: '', selectedIndex: 0, itemCount: 13 })).toEqual({
      type: 'close',
      consume: false,
    });
    expect(paletteKeyAction('Backspace', { query: 'he', selectedIndex: 0, itemCount: 3 })).toEqual({
      type: 'ignore',
    });
    expect(paletteKeyAction('a', { query: '', selectedIndex: 0, itemCount: 3 })).toEqual({ type: 'ignore' });
  });

  it("offers a writer's own commands in their own group, found by name", () => {
    const pirate = customSlashCommand({
      id: '2f1c',
      name: 'Pirate',
      instruction:
        'Rewrite the text as a pirate would say it, with plenty of nautical words and a salty tone.',
    });
    expect(pirate.id).toBe('command:2f1c');
    expect(isCustomCommand(pirate.id)).toBe(true);
    expect(isCustomCommand('aiRewrite')).toBe(false);
    expect(pirate.description.length).toBeLessThanOrEqual(60);
    expect(pirate.description.endsWith('…')).toBe(true);
    const all = [...SLASH_COMMANDS, pirate];
    expect(filterSlashCommands('pira', all).map((c) => c.title)).toEqual(['Pirate']);
    expect(groupSlashCommands(filterSlashCommands('', all)).map((s) => s.group)).toEqual([
      'Basic Blocks',
      'AI Commands',
      'Your Commands',
    ]);
  });
});
