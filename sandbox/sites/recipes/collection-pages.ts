/** The user's recipe collections: list, create, rename, delete, and remove recipes. @module */
import { html } from '../../html';
import { clip, errorSummary, idOf, postForm, submit, textField } from '../../layout';
import type { Router } from '../../router';
import type { Handler, Reply, RequestCtx } from '../../template';
import { collectionRecipes, collections, type CollectionRow } from './queries';

function nameError(ctx: RequestCtx, name: string, selfId?: number): string | undefined {
  if (!name) return 'Give the collection a name.';
  if (name.length > 60) return 'A collection name can be at most 60 characters.';
  const other = ctx.db.prepare('SELECT id FROM collections WHERE name = ? COLLATE NOCASE').get(name) as { id: number } | undefined;
  return other && other.id !== selfId ? `You already have a collection called "${name}".` : undefined;
}

function listPage(ctx: RequestCtx, form: { name?: string; error?: string } = {}): Reply {
  const list = collections(ctx.db);
  return ctx.render({
    title: 'Your collections',
    status: form.error ? 422 : 200,
    body: html`${list.length ? html`<table><thead><tr><th>Collection</th><th>Recipes</th><th>Created</th></tr></thead><tbody>${list.map(
      (c) => html`<tr><td><a href="${ctx.href(`/collections/${c.id}`)}">${c.name}</a></td><td>${c.recipes}</td><td class="muted">${c.created}</td></tr>`,
    )}</tbody></table>` : html`<p>You have no collections yet.</p>`}
<h2>New collection</h2>${form.error ? errorSummary({ name: form.error }) : ''}
${postForm(ctx.href('/collections'), html`<div class="row">${textField({ label: 'Collection name', name: 'name', value: form.name, error: form.error })}${submit('Create collection')}</div>`, { label: 'New collection' })}`,
  });
}

function collectionOf(ctx: RequestCtx): CollectionRow | undefined {
  const id = idOf(ctx.params.id);
  return id === undefined ? undefined : collections(ctx.db).find((c) => c.id === id);
}

function collectionPage(ctx: RequestCtx, c: CollectionRow, form: { name?: string; error?: string } = {}): Reply {
  const items = collectionRecipes(ctx.db, c.id);
  return ctx.render({
    title: c.name,
    status: form.error ? 422 : 200,
    body: html`<p>${items.length} recipe${items.length === 1 ? '' : 's'} · created ${c.created} · <a href="${ctx.href('/collections')}">All collections</a></p>
${items.length ? html`<table><tbody>${items.map((i) => html`<tr><td><a href="${ctx.href(`/recipes/${i.recipe_id}`)}">${i.title}</a></td><td class="muted">saved ${i.added}</td>
<td>${postForm(ctx.href(`/collections/${c.id}/remove`), html`<input type="hidden" name="recipe_id" value="${i.recipe_id}">${submit('Remove', { label: clip(`Remove ${i.title} from this collection`), variant: 'secondary' })}`, { inline: true })}</td></tr>`)}</tbody></table>`
    : html`<p>No recipes saved here yet. Use "Save to collection" on a recipe page.</p>`}
<h2>Rename</h2>${form.error ? errorSummary({ name: form.error }) : ''}
${postForm(ctx.href(`/collections/${c.id}/rename`), html`<div class="row">${textField({ label: 'New name', name: 'name', value: form.name ?? c.name, error: form.error })}${submit('Rename collection')}</div>`, { label: 'Rename collection' })}
<h2>Delete</h2>${postForm(ctx.href(`/collections/${c.id}/delete`), submit('Delete collection', { variant: 'danger' }))}`,
  });
}

function withCollection(run: (ctx: RequestCtx, c: CollectionRow) => Reply): Handler {
  return (ctx) => {
    const c = collectionOf(ctx);
    return c ? run(ctx, c) : ctx.notFound('That collection does not exist.');
  };
}

/** Registers the collection pages. */
export function collectionRoutes(r: Router<Handler>): void {
  r.get('/collections', (ctx) => listPage(ctx));
  r.post('/collections', (ctx) => {
    const name = ctx.field('name');
    const error = nameError(ctx, name);
    if (error) return listPage(ctx, { name, error });
    const id = ctx.db.prepare('INSERT INTO collections (name, created) VALUES (?, ?)').run(name, ctx.site.today).lastInsertRowid;
    ctx.flash(`Created the collection ${name}.`);
    return ctx.redirect(`/collections/${id}`);
  });
  r.get('/collections/:id', withCollection((ctx, c) => collectionPage(ctx, c)));
  r.post('/collections/:id/rename', withCollection((ctx, c) => {
    const name = ctx.field('name');
    const error = nameError(ctx, name, c.id);
    if (error) return collectionPage(ctx, c, { name, error });
    ctx.db.prepare('UPDATE collections SET name = ? WHERE id = ?').run(name, c.id);
    ctx.flash(`Renamed ${c.name} to ${name}.`);
    return ctx.redirect(`/collections/${c.id}`);
  }));
  r.post('/collections/:id/delete', withCollection((ctx, c) => {
    ctx.db.prepare('DELETE FROM collection_recipes WHERE collection_id = ?').run(c.id);
    ctx.db.prepare('DELETE FROM collections WHERE id = ?').run(c.id);
    ctx.flash(`Deleted the collection ${c.name}.`);
    return ctx.redirect('/collections');
  }));
  r.post('/collections/:id/remove', withCollection((ctx, c) => {
    const rid = idOf(ctx.field('recipe_id'));
    const n = rid === undefined ? 0 : ctx.db.prepare('DELETE FROM collection_recipes WHERE collection_id = ? AND recipe_id = ?').run(c.id, rid).changes;
    if (!n) return ctx.notFound('That recipe is not in this collection.');
    ctx.flash(`Removed the recipe from ${c.name}.`);
    return ctx.redirect(`/collections/${c.id}`);
  }));
}
