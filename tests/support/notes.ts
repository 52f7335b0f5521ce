import type { RxJsonSchema } from 'rxdb';

/** The document of the client storages' unit tests: an id and a text. */
export type Note = { id: string; text: string };

export const noteSchema: RxJsonSchema<Note> = {
  version: 0,
  primaryKey: 'id',
  type: 'object',
  properties: { id: { type: 'string', maxLength: 40 }, text: { type: 'string' } },
  required: ['id', 'text'],
};

/** `n` notes numbered from `from`, their ids (`note-0000`…) in that order. */
export const notes = (n: number, from = 0): Note[] =>
  Array.from({ length: n }, (_, i) => ({ id: `note-${String(from + i).padStart(4, '0')}`, text: `n${from + i}` }));
