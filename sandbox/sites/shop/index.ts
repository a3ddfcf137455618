/** The online shop template: catalog with search, filters, sort and pages; cart, wishlist, checkout, orders, account. @module */
import type { SiteTemplate } from '../../template';
import { accountRoutes } from './account-pages';
import { cartRoutes } from './cart-pages';
import { catalogRoutes } from './catalog-pages';
import { SHOP_SCHEMA, seedShop } from './seed';
import { shopTasks } from './tasks';

/** An online shop (one store theme per variant). */
export const shop: SiteTemplate = {
  id: 'shop',
  kind: 'online shop',
  schema: SHOP_SCHEMA,
  seed: seedShop,
  nav: [
    { label: 'All products', path: '/products' },
    { label: 'Categories', path: '/categories' },
    { label: 'Wishlist', path: '/wishlist' },
    { label: 'Orders', path: '/orders' },
    { label: 'Account', path: '/account' },
    { label: 'Cart', path: '/cart' },
  ],
  search: { action: '/products', param: 'q', label: 'Search products' },
  routes(router) {
    catalogRoutes(router);
    cartRoutes(router);
    accountRoutes(router);
  },
  tasks: shopTasks,
  consequences: [
    // A checkout orders the whole cart: its items, the stock they take, the cart emptied.
    { when: { table: 'orders', op: 'create' }, allow: [{ table: 'order_items', op: 'create', pin: { order_id: 'id' } }, { table: 'products', op: 'update', fields: ['stock'] }, { table: 'cart_items', op: 'delete' }] },
    // A cancelled order's items go back in stock.
    { when: { table: 'orders', op: 'update' }, allow: [{ table: 'products', op: 'update', fields: ['stock'] }] },
  ],
};
