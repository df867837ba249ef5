import { waitFor } from '@testing-library/react';
import { api } from '../../app/api';
import { makeStore } from '../../app/store';
import { apiRoute } from '../../lib/api/paths';
import { json, mockFetch, signedIn } from '../../test/utils';
import { wishlistApi } from './api';

// The list picker (lists) reads /api/lists, which carries each list's item count, under
// the 'Lists' tag. A probe of the same tag stands in for it here (features do not import each
// other): adding or deleting an item must make it read the counts again.
const probe = api.injectEndpoints({
  endpoints: (build) => ({
    listsProbe: build.query<{ itemCount: number }[], void>({
      query: () => apiRoute('GET', '/api/lists'),
      providesTags: [{ type: 'Lists', id: 'ALL' }],
    }),
  }),
});

function setup() {
  let count = 0;
  const calls = mockFetch((call) => {
    if (call.url === '/api/lists') return json([{ itemCount: count }]);
    if (call.method === 'POST') {
      count++;
      return json({ id: 'new', name: 'Sled' }, 201);
    }
    if (call.method === 'DELETE') {
      count--;
      return json(null, 204);
    }
    return json([]);
  });
  const store = makeStore(signedIn());
  store.dispatch(probe.endpoints.listsProbe.initiate());
  const listReads = () => calls.filter((c) => c.url === '/api/lists').length;
  const counts = () => probe.endpoints.listsProbe.select()(store.getState()).data?.[0]?.itemCount;
  return { store, listReads, counts };
}

describe('wishlist mutations and the lists’ counts', () => {
  it('adding an item reads the lists again, with the new count', async () => {
    const { store, listReads, counts } = setup();
    await waitFor(() => expect(counts()).toBe(0));
    await store.dispatch(wishlistApi.endpoints.addWishlistItem.initiate({ name: 'Sled' } as never)).unwrap();
    await waitFor(() => expect(counts()).toBe(1));
    expect(listReads()).toBe(2);
  });

  it('deleting an item reads the lists again, with the new count', async () => {
    const { store, listReads, counts } = setup();
    await waitFor(() => expect(counts()).toBe(0));
    await store.dispatch(wishlistApi.endpoints.addWishlistItem.initiate({ name: 'Sled' } as never)).unwrap();
    await waitFor(() => expect(counts()).toBe(1));
    await store.dispatch(wishlistApi.endpoints.deleteWishlistItem.initiate('new')).unwrap();
    await waitFor(() => expect(counts()).toBe(0));
    expect(listReads()).toBe(3);
  });
});

describe('getWishlist', () => {
  it('asks for one list by the listId query parameter, and for the default list without it', async () => {
    const calls = mockFetch(() => json([]));
    const store = makeStore(signedIn());
    await store.dispatch(wishlistApi.endpoints.getWishlist.initiate('list 1/2')).unwrap();
    await store.dispatch(wishlistApi.endpoints.getWishlist.initiate()).unwrap();
    expect(calls.map((c) => c.url)).toEqual(['/api/wishlist?listId=list+1%2F2', '/api/wishlist']);
  });
});
