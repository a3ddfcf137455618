/** The recipe site's tasks: info and action generators over the site's data, each with a verifier and an oracle. @module */
import { firstIsHuman, noRow, request, roundRobin, row, step } from '../../task-kit';
import type { TaskInput, TaskSpec } from '../../template';
import { clip } from '../../layout';
import { COURSES } from './dishes';
import { DIETS, PAGE_SIZE, SORTS, ingredientText, planNeeds, type PlanRow, type RecipeRow } from './queries';
import { planLabel, weekOrder } from './plan-pages';
import { DAYS, MEALS } from './seed';
import { SEARCH, infoTasks, loadRecipes, measured, openRecipe, type RecipeData } from './task-info';
import { parseIngredient } from './submit-pages';
import { SUBMISSIONS } from './task-texts';

/** Tasks per generator in the bank (keeps the bank varied and quick to check). */
const PER_GROUP = 12;

const REVIEWS = [
  ['Weeknight winner', 'Quick, tasty and the kids loved it.'], ['Lovely recipe', 'I added extra garlic and it was perfect.'],
  ['Good but salty', 'I would halve the salt next time.'], ['Will make again', 'Clear steps and great results.'],
  ['Too bland for me', 'Needed a lot more seasoning.'],
] as const;
const NEW_COLLECTIONS = ['Summer cooking', 'Date night', 'Meal prep', 'Holiday baking', 'Quick lunches', 'Comfort food'];

function collectionActions(d: RecipeData, today: string): TaskSpec[][] {
  const inCol = (cid: number, rid: number): boolean => (d.saved.get(cid) ?? []).some((s) => s.recipe_id === rid);
  const savable = d.mix(d.recipes).flatMap((r, i) => {
    const c = d.collections.filter((x) => !inCol(x.id, r.id))[i % Math.max(1, d.collections.length)];
    return c ? [{ r, c }] : [];
  });
  return [
    savable.map(({ r, c }) => ({
      slug: `save-${r.id}-${c.id}`, kind: 'action', instruction: `Save the ${r.title} to my "${c.name}" collection.`,
      verifier: { state: [row('collection_recipes', { collection_id: c.id, recipe_id: r.id })] },
      oracle: [...openRecipe(r), step.select('Collection', c.name), step.button('Save to collection'), step.done()],
    })),
    d.collections.flatMap((c, i) => [`${c.name} (${['old', 'archive', '2025'][i % 3]})`, `My ${c.name.toLowerCase()}`].map((name, k) => ({
      slug: `rename-collection-${c.id}-${k}`, kind: 'action' as const, instruction: `Rename my "${c.name}" collection to "${name}".`,
      verifier: { state: [row('collections', { id: c.id }, { name })] },
      oracle: [step.link('Collections'), step.link(c.name), step.type('New name', name), step.button('Rename collection'), step.done()],
    }))),
    NEW_COLLECTIONS.flatMap((name, i) => {
      const r = d.recipes[(i * 7 + 3) % d.recipes.length];
      return r && !d.collections.some((c) => c.name.toLowerCase() === name.toLowerCase()) ? [{
        slug: `new-collection-${i}`, kind: 'action' as const, instruction: `Create a collection called "${name}" and save the ${r.title} in it.`,
        verifier: { state: [row('collections', { name }), row('collection_recipes', { recipe_id: r.id }, { added: today })] },
        oracle: [step.link('Collections'), step.type('Collection name', name), step.button('Create collection'), ...openRecipe(r),
          step.select('Collection', name), step.button('Save to collection'), step.done()],
      }] : [];
    }),
    d.collections.map((c) => ({
      slug: `delete-collection-${c.id}`, kind: 'action', instruction: `Delete my "${c.name}" collection.`,
      verifier: { state: [noRow('collections', { id: c.id })] }, oracle: [step.link('Collections'), step.link(c.name), step.button('Delete collection'), step.done()],
    })),
    d.collections.flatMap((c) => (d.saved.get(c.id) ?? []).map((s) => ({
      slug: `unsave-${c.id}-${s.recipe_id}`, kind: 'action' as const, instruction: `Take the ${s.title} out of my "${c.name}" collection.`,
      verifier: { state: [noRow('collection_recipes', { collection_id: c.id, recipe_id: s.recipe_id })] },
      oracle: [step.link('Collections'), step.link(c.name), step.button(clip(`Remove ${s.title} from this collection`)), step.done()],
    }))),
  ];
}

function reviewActions(d: RecipeData): TaskSpec[][] {
  const reviewed = (r: RecipeRow) => (d.reviews.get(r.id) ?? []).some((v) => v.mine);
  const mine = d.recipes.flatMap((r) => (d.reviews.get(r.id) ?? []).filter((v) => v.mine).map((v) => ({ r, v })));
  return [
    d.mix(d.recipes.filter((r) => !r.mine && !reviewed(r))).map((r, i) => {
      const [title, body] = REVIEWS[i % REVIEWS.length] ?? REVIEWS[0];
      const rating = 5 - (i % 5);
      return {
        slug: `review-${r.id}`, kind: 'action', instruction: `Leave a ${rating}-star review on the ${r.title} titled "${title}" that says "${body}"`,
        verifier: { state: [row('reviews', { recipe_id: r.id, mine: 1 }, { rating, title, body })] },
        oracle: [...openRecipe(r), step.select('Rating', `${rating} star${rating === 1 ? '' : 's'}`), step.type('Review title', title), step.type('Your review', body), step.button('Post review'), step.done()],
      };
    }),
    mine.flatMap(({ r, v }) => [1, 2, 3, 4, 5].filter((n) => n !== v.rating).slice(0, 2).map((n) => ({
      slug: `rerate-${v.id}-${n}`, kind: 'action' as const, instruction: `Change my review of the ${r.title} to ${n} star${n === 1 ? '' : 's'}.`,
      verifier: { state: [row('reviews', { id: v.id }, { rating: n })] },
      oracle: [...openRecipe(r), step.link('Edit your review'), step.select('Rating', `${n} star${n === 1 ? '' : 's'}`), step.button('Save review'), step.done()],
    }))),
    mine.map(({ r, v }) => ({
      slug: `delete-review-${v.id}`, kind: 'action', instruction: `Delete the review I wrote for the ${r.title}.`,
      verifier: { state: [noRow('reviews', { id: v.id })] }, oracle: [...openRecipe(r), step.button('Delete your review'), step.done()],
    })),
  ];
}

function planActions(d: RecipeData): TaskSpec[][] {
  const slots = DAYS.flatMap((day) => MEALS.map((meal) => ({ day, meal })));
  const fits = (r: RecipeRow, meal: string): boolean => (meal === 'Breakfast' ? ['Breakfast', 'Drink'] : ['Main', 'Starter', 'Side']).includes(r.course);
  const adds = d.mix(slots).flatMap(({ day, meal }, i) => {
    const taken = d.plan.find((p) => p.day === day && p.meal === meal);
    const options = d.recipes.filter((r) => fits(r, meal) && r.id !== taken?.recipe_id);
    const r = options[(i * 5) % Math.max(1, options.length)];
    return r ? [{
      slug: `plan-${r.id}-${day.toLowerCase()}-${meal.toLowerCase()}`, kind: 'action' as const, instruction: `Plan the ${r.title} for ${meal.toLowerCase()} on ${day}.`,
      verifier: { state: [row('meal_plan', { day, meal }, { recipe_id: r.id })] },
      oracle: [...openRecipe(r), step.select('Day', day), step.select('Meal', meal), step.button('Add to meal plan'), step.done()],
    }] : [];
  });
  const removes = d.plan.map((p) => ({
    slug: `unplan-${p.id}`, kind: 'action' as const, instruction: `Remove the ${p.title} from ${p.day}'s ${p.meal.toLowerCase()} in my meal plan.`,
    verifier: { state: [noRow('meal_plan', { id: p.id })] }, oracle: [step.link('Meal planner'), step.button(`Remove ${p.day} ${p.meal.toLowerCase()}`), step.done()],
  }));
  const clear = d.plan.length ? [{
    slug: 'clear-plan', kind: 'action' as const, instruction: 'Clear my whole meal plan for the week.',
    verifier: { state: d.plan.map((p) => noRow('meal_plan', { id: p.id })) }, oracle: [step.link('Meal planner'), step.button('Clear the whole week'), step.done()],
  }] : [];
  return [adds, [...removes, ...clear]];
}

function shoppingActions(d: RecipeData): TaskSpec[][] {
  const order = weekOrder(d.plan);
  const build = [step.link('Shopping list'), step.link('Build from meal plan')];
  const have = (name: string, unit: string, quantity: number | null) => row('shopping_items', { name, unit }, { quantity, source: 'plan', bought: 0 });
  // The verifier checks a few of the items; the task asks for every one of them.
  const adding = (items: ReadonlyArray<{ name: string; unit: string }>) => items.map((n) => ({ table: 'shopping_items', op: 'create' as const, where: { name: n.name, unit: n.unit, source: 'plan' } }));
  const all = planNeeds(d.db, order.map((p) => p.id), true).filter((n) => n.quantity !== null);
  const whole: TaskSpec[] = all.length >= 2 ? [{
    slug: 'list-from-plan', kind: 'action', instruction: 'Add everything my planned meals need to my shopping list, leaving out pantry staples like salt and oil.',
    verifier: { state: [...all.slice(0, 3).map((n) => have(n.name, n.unit, n.quantity)), noRow('shopping_items', { name: 'salt' })], allow: adding(all) },
    oracle: [...build, step.button('Review ingredients'), step.button('Add to shopping list'), step.done()],
  }] : [];
  const oneMeal = order.map((p: PlanRow) => {
    const needs = planNeeds(d.db, [p.id], true).filter((n) => n.quantity !== null);
    const others = planNeeds(d.db, order.filter((o) => o.id !== p.id).map((o) => o.id), true);
    const only = needs.filter((n) => !others.some((o) => o.name === n.name && o.unit === n.unit));
    const elsewhere = others.filter((o) => !needs.some((n) => n.name === o.name));
    return {
      slug: `list-for-${p.id}`, kind: 'action' as const, instruction: `Put only the ingredients for ${p.day}'s ${p.meal.toLowerCase()} (${p.title}) on my shopping list.`,
      verifier: { state: [...only.slice(0, 2).map((n) => have(n.name, n.unit, n.quantity)), ...elsewhere.slice(0, 1).map((o) => noRow('shopping_items', { name: o.name }))], allow: adding(needs) },
      oracle: [...build, ...order.filter((o) => o.id !== p.id).map((o) => step.check(planLabel(o))), step.button('Review ingredients'), step.button('Add to shopping list'), step.done()],
    };
  }).filter((t) => t.verifier.state.length >= 2);
  const skipOne = d.mix(all.filter((n) => all.filter((x) => x.name === n.name).length === 1)).map((n, i) => {
    const other = all[(i + 1) % all.length];
    return {
      slug: `list-without-${n.name.replace(/[^a-z0-9]+/gi, '-')}`, kind: 'action' as const,
      instruction: `Build my shopping list from the whole meal plan without pantry staples, but leave out the ${n.name}: I already have it.`,
      verifier: { state: [noRow('shopping_items', { name: n.name }), ...(other ? [have(other.name, other.unit, other.quantity)] : [])], allow: adding(all.filter((x) => x !== n)) },
      oracle: [...build, step.button('Review ingredients'), step.check(clip(ingredientText(n))), step.button('Add to shopping list'), step.done()],
    };
  });
  const extras = [['oat milk', 1, 'l'], ['basmati rice', 1, 'kg'], ['eggs', 12, ''], ['fresh basil', 30, 'g'], ['greek yogurt', 500, 'g'], ['limes', 4, '']] as const;
  const custom = extras.map(([name, qty, unit]) => ({
    slug: `add-item-${name.replace(/\s+/g, '-')}`, kind: 'action' as const, instruction: `Add ${qty}${unit ? ` ${unit}` : ''} ${unit ? 'of ' : ''}${name} to my shopping list.`,
    verifier: { state: [row('shopping_items', { name }, { quantity: qty, unit, bought: 0 })] },
    oracle: [step.link('Shopping list'), step.type('Item', name), step.type('Quantity', String(qty), { role: 'spinbutton' }), ...(unit ? [step.type('Unit', unit)] : []), step.button('Add item'), step.done()],
  }));
  const toggles = d.shopping.map((i) => {
    const label = ingredientText(i).replace(' (to taste)', '');
    return i.bought
      ? { slug: `unbuy-${i.id}`, kind: 'action' as const, instruction: `Put the ${i.name} back on my shopping list as not bought yet.`,
        verifier: { state: [row('shopping_items', { id: i.id }, { bought: 0 })] }, oracle: [step.link('Shopping list'), step.button(clip(`Mark ${label} as not bought`)), step.done()] }
      : { slug: `buy-${i.id}`, kind: 'action' as const, instruction: `Tick off the ${i.name} on my shopping list as bought.`,
        verifier: { state: [row('shopping_items', { id: i.id }, { bought: 1 })] }, oracle: [step.link('Shopping list'), step.button(clip(`Mark ${label} as bought`)), step.done()] };
  });
  const clearBought = d.shopping.some((i) => i.bought) ? [{
    slug: 'clear-bought', kind: 'action' as const, instruction: 'Clear the items I have already bought from my shopping list.',
    verifier: { state: [noRow('shopping_items', { bought: 1 })] }, oracle: [step.link('Shopping list'), step.button('Remove bought items'), step.done()],
  }] : [];
  return [whole, [...oneMeal, ...skipOne], [...custom, ...toggles, ...clearBought]];
}

function submitActions(d: RecipeData): TaskSpec[] {
  const taken = new Set(d.recipes.map((r) => r.title.toLowerCase()));
  return SUBMISSIONS.filter((s) => !taken.has(s.title.toLowerCase())).map((s, i) => {
    const c = d.cuisines[(i * 3) % d.cuisines.length] ?? d.cuisines[0];
    const first = parseIngredient(s.ingredients[0] ?? '');
    return {
      slug: `submit-${i}`, kind: 'action' as const,
      instruction: `Submit my recipe "${s.title}": ${/^[AEIOU]/.test(c?.name ?? '') ? 'an' : 'a'} ${c?.name} ${s.course.toLowerCase()} for ${s.servings} with ${s.prep} minutes of prep and ${s.cook} of cooking. Ingredients: ${s.ingredients.join('; ')}. Steps: ${s.steps.join(' ')}`,
      verifier: { state: [
        row('recipes', { title: s.title }, { cuisine_id: c?.id ?? 0, course: s.course, servings: s.servings, prep_minutes: s.prep, cook_minutes: s.cook, mine: 1 }),
        ...(first ? [row('ingredients', { recipe: s.title, name: first.name }, { quantity: first.quantity, unit: first.unit })] : []),
        row('steps', { title: s.title, position: s.steps.length }, { text: s.steps[s.steps.length - 1] ?? '' }),
      ] },
      oracle: [step.link('Submit a recipe'), step.type('Recipe title', s.title), step.select('Cuisine', c?.name ?? ''), step.select('Course', s.course),
        step.type('Prep time (minutes)', String(s.prep), { role: 'spinbutton' }), step.type('Cook time (minutes)', String(s.cook), { role: 'spinbutton' }),
        step.type('Servings', String(s.servings), { role: 'spinbutton' }), step.type('Ingredients (one per line)', s.ingredients.join('\n')),
        step.type('Steps (one per line)', s.steps.join('\n')), step.button('Submit recipe'), step.done()],
    };
  });
}

function viewActions(d: RecipeData, href: TaskInput['href']): TaskSpec[][] {
  const get = (query: Record<string, string | number>) => ({ requests: [request('GET', href('/recipes'), query)] });
  const byDiet = d.mix(d.cuisines.flatMap((c) => DIETS.slice(0, 3).map((diet) => ({
    slug: `show-${diet.value}-${c.slug}`, kind: 'action' as const, instruction: `Show me ${diet.text.toLowerCase()} ${c.name} recipes.`,
    verifier: get({ cuisine: c.slug, diet: diet.value }), oracle: [step.link(c.name), step.select('Diet', diet.text), step.button('Apply filters'), step.done()],
  }))));
  const byTime = d.mix(COURSES.flatMap((course, i) => [20, 30, 45].map((n) => ({
    slug: `quick-${course.toLowerCase()}-${n}`, kind: 'action' as const, instruction: `Find ${course.toLowerCase()} recipes I can make in ${n} minutes or less.`,
    verifier: get({ course, max_time: n }), oracle: [step.link(course), step.type('Max total time (minutes)', String(n), { role: 'spinbutton' }), step.button('Apply filters'), step.done()],
  })).slice(i % 2)));
  const byLevel = d.mix(d.cuisines.flatMap((c) => ['Easy', 'Hard'].map((level) => ({
    slug: `level-${level.toLowerCase()}-${c.slug}`, kind: 'action' as const, instruction: `List only the ${level.toLowerCase()} ${c.name} recipes.`,
    verifier: get({ cuisine: c.slug, difficulty: level }), oracle: [step.link(c.name), step.select('Difficulty', level), step.button('Apply filters'), step.done()],
  }))));
  const phrase: Record<string, string> = { rating: 'best rated first', quickest: 'quickest first', newest: 'newest first', calories: 'lowest calories first', name: 'alphabetically' };
  const sorted = d.mix(d.cuisines.flatMap((c) => SORTS.filter((s) => s.value !== 'featured').map((s) => ({
    slug: `sort-${c.slug}-${s.value}`, kind: 'action' as const, instruction: `Sort the ${c.name} recipes ${phrase[s.value]}.`,
    verifier: get({ cuisine: c.slug, sort: s.value }), oracle: [step.link(c.name), step.select('Sort by', s.text), step.button('Apply filters'), step.done()],
  }))));
  const pages = [
    { slug: 'all-page-2', kind: 'action' as const, instruction: 'Go to the second page of all recipes.', verifier: get({ page: 2 }), oracle: [step.link('Recipes'), step.link('Next page'), step.done()] },
    ...d.cuisines.filter((c) => c.recipes > PAGE_SIZE).map((c) => ({
      slug: `page-2-${c.slug}`, kind: 'action' as const, instruction: `Open the second page of ${c.name} recipes.`, verifier: get({ cuisine: c.slug, page: 2 }),
      oracle: [step.link(c.name), step.link('Next page'), step.done()],
    })),
  ];
  const words = [...new Set(d.recipes.flatMap((r) => measured(d, r).map((i) => i.name)))].sort();
  const searches = d.mix(words).map((w, i) => (i % 2
    ? { slug: `search-${w.replace(/[^a-z0-9]+/gi, '-')}`, kind: 'action' as const, instruction: `Search for recipes that use ${w}.`,
      verifier: get({ q: w }), oracle: [step.search(SEARCH, w), step.done()] }
    : { slug: `search-gf-${w.replace(/[^a-z0-9]+/gi, '-')}`, kind: 'action' as const, instruction: `Search for gluten-free recipes with ${w}.`,
      verifier: get({ q: w, diet: 'gluten-free' }), oracle: [step.search(SEARCH, w), step.select('Diet', 'Gluten-free'), step.button('Apply filters'), step.done()] }));
  return [byDiet, byTime, byLevel, sorted, [...pages, ...searches]];
}

/** Generates the recipe site's tasks (about 350 per site); the first task of the main generators is a human task. */
export function recipeTasks({ db, faker, href, site }: TaskInput): TaskSpec[] {
  const d = loadRecipes(db, faker);
  const info = infoTasks(d);
  const [save, rename, create, ...moreCollections] = collectionActions(d, site.today);
  const [review, rerate, ...moreReviews] = reviewActions(d);
  const [plan, unplan] = planActions(d);
  const [whole, partial, shopping] = shoppingActions(d);
  const mine = d.recipes.filter((r) => r.mine).map((r) => ({
    slug: `delete-recipe-${r.id}`, kind: 'action' as const, instruction: `Delete the ${r.title} recipe I submitted.`,
    verifier: { state: [noRow('recipes', { id: r.id })] }, oracle: [...openRecipe(r), step.button('Delete this recipe'), step.done()],
  }));
  const human = [save, review, plan, whole, submitActions(d), rename, rerate, create];
  const rest = [...moreCollections, ...moreReviews, unplan, partial, shopping, mine, ...viewActions(d, href)];
  const cap = (g: TaskSpec[] | undefined): TaskSpec[] => (g ?? []).slice(0, PER_GROUP);
  return roundRobin([
    ...info.slice(0, 7).map((g) => firstIsHuman(cap(g))),
    ...human.map((g) => firstIsHuman(cap(g))),
    ...info.slice(7).map(cap),
    ...rest.map(cap),
  ]);
}
