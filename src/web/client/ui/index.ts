// The client's shared pieces, one import away (`from '../ui'`); each file holds one kind of them.
export * from './dialogs';
export * from './feedback';
export * from './format';
export * from './hooks';
export * from './page';
export * from './secrets';
export * from './table';
export * from './markdown';
export * from './visuals';
export * from './markdown-editor';
export * from './when';
