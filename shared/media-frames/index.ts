export * from './frame';
export * from './queue';
export * from './receiver';
export * from './clock';
export * from './stats';
