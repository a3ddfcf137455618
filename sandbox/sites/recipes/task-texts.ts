/** Recipes users submit in tasks: what they type into the submit form. @module */
import type { Course } from './dishes';

/** A recipe to submit: its title, course, servings, minutes, ingredient lines and steps. */
export interface Submission {
  readonly title: string;
  readonly course: Course;
  readonly servings: number;
  readonly prep: number;
  readonly cook: number;
  /** Ingredient lines as typed, one per line of the form (`200 g plain flour`). */
  readonly ingredients: readonly string[];
  readonly steps: readonly string[];
}

/** Recipes to submit, none of which the seed makes. */
export const SUBMISSIONS: readonly Submission[] = [
  { title: "Grandma's Apple Cake", course: 'Dessert', servings: 8, prep: 20, cook: 45, ingredients: ['300 g plain flour', '3 apples', '150 g butter'],
    steps: ['Heat the oven to 180°C.', 'Mix everything and bake for 45 minutes.'] },
  { title: 'Midweek Veggie Chili', course: 'Main', servings: 4, prep: 15, cook: 30, ingredients: ['2 cans kidney beans', '400 g chopped tomatoes', '1 tbsp chili powder'],
    steps: ['Fry the spices for a minute.', 'Add the beans and tomatoes and simmer for 30 minutes.'] },
  { title: 'Easy Tomato Bruschetta', course: 'Starter', servings: 6, prep: 10, cook: 5, ingredients: ['300 g ripe tomatoes', '1 baguette', '2 tbsp olive oil'],
    steps: ['Toast the sliced baguette.', 'Top with chopped tomatoes and a drizzle of oil.'] },
  { title: 'Peanut Butter Cookies', course: 'Dessert', servings: 12, prep: 10, cook: 12, ingredients: ['250 g peanut butter', '200 g sugar', '1 egg'],
    steps: ['Mix everything into a dough.', 'Bake spoonfuls for 12 minutes.'] },
  { title: 'Sunday Morning Hash', course: 'Breakfast', servings: 2, prep: 10, cook: 20, ingredients: ['400 g potatoes', '2 eggs', '1 onion'],
    steps: ['Fry the diced potatoes and onion until crisp.', 'Make two wells and cook the eggs in them.'] },
  { title: 'Iced Ginger Cooler', course: 'Drink', servings: 4, prep: 10, cook: 0, ingredients: ['50 g fresh ginger', '1 l sparkling water', '3 tbsp honey'],
    steps: ['Steep the grated ginger with the honey in hot water.', 'Cool, strain and top up with sparkling water.'] },
];
