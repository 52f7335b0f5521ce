import type { RxStorage, RxStorageInstance } from 'rxdb';

export type AnyStorageInstance = RxStorageInstance<unknown, unknown, unknown>;

/**
 * A storage whose every instance answers some of its methods its own way: `overrides` gets each
 * instance as the storage made it and returns the methods to answer in its place (calling the
 * instance's own where they need to); every other method is the instance's own, bound to it.
 * The browser's storage is made of these (`chunked-storage.ts`, `indexed-reads.ts`).
 */
export function overrideInstances<I, O>(
  storage: RxStorage<I, O>,
  overrides: (instance: AnyStorageInstance) => Partial<AnyStorageInstance>,
): RxStorage<I, O> {
  return new Proxy(storage, {
    get(target, prop, receiver) {
      if (prop !== 'createStorageInstance') return Reflect.get(target, prop, receiver) as unknown;
      return async (params: Parameters<RxStorage<I, O>['createStorageInstance']>[0]) => {
        const instance = await target.createStorageInstance(params);
        const own: Record<PropertyKey, unknown> = overrides(instance as unknown as AnyStorageInstance);
        return new Proxy(instance, {
          get(inner, name) {
            if (Object.hasOwn(own, name)) return own[name];
            const value = Reflect.get(inner, name, inner) as unknown;
            return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(inner) : value;
          },
        });
      };
    },
  });
}
