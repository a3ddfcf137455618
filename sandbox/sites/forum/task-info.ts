/** The forum's info tasks (questions about threads, boards, members and notifications) and the data tasks share. @module */
import type { Database } from 'better-sqlite3';
import type { Faker } from '@faker-js/faker';
import type { OracleStep } from '../../oracle';
import { answer, step } from '../../task-kit';
import type { TaskSpec } from '../../template';
import {
  boards, bookmarks, findMembers, findThreads, follows, notifications, postsOf, settings, tagList, tagsIn, votedPosts,
  type BoardRow, type MemberRow, type NotificationRow, type PostRow, type SavedRow, type SettingsRow, type ThreadRow,
} from './queries';

/** The header search box's name. */
export const SEARCH = 'Search the forum';

/** A site's pristine data as the task generators see it. */
export interface ForumData {
  readonly threads: ThreadRow[];
  readonly posts: Map<number, PostRow[]>;
  readonly boards: BoardRow[];
  readonly members: MemberRow[];
  readonly me: SettingsRow;
  readonly voted: Set<number>;
  readonly follows: SavedRow[];
  readonly bookmarks: SavedRow[];
  readonly notes: NotificationRow[];
  readonly tags: Map<string, string[]>;
  /** A seeded shuffle. */
  mix<T>(list: readonly T[]): T[];
}

/** Reads everything the generators need once. */
export function loadForum(db: Database, faker: Faker): ForumData {
  const threads = findThreads(db, { sort: 'newest' });
  const all = boards(db);
  return {
    threads,
    posts: new Map(threads.map((t) => [t.id, postsOf(db, t.id)])),
    boards: all,
    members: findMembers(db, { sort: 'name' }),
    me: settings(db),
    voted: votedPosts(db),
    follows: follows(db),
    bookmarks: bookmarks(db),
    notes: notifications(db),
    tags: new Map(all.map((b) => [b.slug, tagsIn(db, b.slug)])),
    mix: (list) => faker.helpers.shuffle([...list]),
  };
}

/** Opens a thread from the home page: search its title, follow the result. */
export function openThread(t: Pick<ThreadRow, 'title'>): OracleStep[] {
  return [step.search(SEARCH, t.title), step.link(t.title)];
}

/** Opens a thread and goes to the page that shows post number `n`. */
export function openPost(d: ForumData, t: ThreadRow, n: number): OracleStep[] {
  const page = Math.ceil(n / d.me.posts_per_page);
  return [...openThread(t), ...(page > 1 ? [step.link(`Page ${page}`)] : [])];
}

/** Opens a member's profile through the member list. */
export function openMember(m: Pick<MemberRow, 'name'>): OracleStep[] {
  return [step.link('Members'), step.type('Member name', m.name), step.button('Show members'), step.link(m.name)];
}

/** Whether a text answer is specific: it has a digit or a word that is not a palindrome. */
export function specific(text: string): boolean {
  return /\d/.test(text) || (text.match(/[A-Za-z]+/g) ?? []).some((w) => w.toLowerCase() !== [...w.toLowerCase()].reverse().join(''));
}

/** The one item with the highest `key`, or `undefined` on a tie. */
function uniqueTop<T>(list: readonly T[], key: (x: T) => number | string): T | undefined {
  const sorted = [...list].sort((a, b) => (key(b) > key(a) ? 1 : key(b) < key(a) ? -1 : 0));
  const [a, b] = sorted;
  return a && (!b || key(b) !== key(a)) ? a : undefined;
}

function text(slug: string, instruction: string, value: string, oracle: OracleStep[]): TaskSpec[] {
  return specific(value) ? [{ slug, kind: 'info', instruction, verifier: { answer: answer.includes(value) }, oracle: [...oracle, step.done(value)] }] : [];
}

function count(slug: string, instruction: string, n: number, shown: string, oracle: OracleStep[]): TaskSpec {
  return { slug, kind: 'info', instruction, verifier: { answer: answer.number(n, 0) }, oracle: [...oracle, step.done(shown)] };
}

/** The info task generators, one list per kind of question. */
export function infoTasks(d: ForumData): TaskSpec[][] {
  const withReplies = d.threads.filter((t) => t.replies > 0);
  const groups: TaskSpec[][] = [];
  groups.push(d.mix(d.threads).flatMap((t) => text(`author-${t.id}`, `Who started the thread "${t.title}"? Give their username.`, t.author, openThread(t))));
  groups.push(d.mix(d.threads).map((t) => count(`replies-${t.id}`, `How many replies does the thread "${t.title}" have?`, t.replies, `${t.replies} replies`, openThread(t))));
  groups.push(d.mix(withReplies).flatMap((t) => {
    const posts = d.posts.get(t.id) ?? [];
    return text(`last-reply-${t.id}`, `Who wrote the most recent reply in the thread "${t.title}"?`, t.last_author, openPost(d, t, posts.length));
  }));
  const mostReplies: TaskSpec[] = [];
  const topVoted: TaskSpec[] = [];
  const latest: TaskSpec[] = [];
  const sizes: TaskSpec[] = [];
  const tagged: TaskSpec[] = [];
  for (const b of d.boards) {
    const inBoard = d.threads.filter((t) => t.board_id === b.id);
    const busy = uniqueTop(inBoard, (t) => t.replies);
    if (busy) mostReplies.push(...text(`most-replies-${b.slug}`, `Which thread in the ${b.name} board has the most replies? Give its title.`, busy.title,
      [step.link(b.name), step.select('Sort by', 'Most replies'), step.button('Apply filters')]));
    const top = uniqueTop(inBoard, (t) => t.votes);
    if (top) topVoted.push(...text(`top-voted-${b.slug}`, `Which thread in ${b.name} is the top voted one? Give its title.`, top.title,
      [step.link(b.name), step.select('Sort by', 'Top voted'), step.button('Apply filters')]));
    const fresh = uniqueTop(inBoard, (t) => t.last_activity);
    if (fresh) latest.push(...text(`latest-${b.slug}`, `Which thread in ${b.name} had the most recent activity? Give its title.`, fresh.title, [step.link(b.name)]));
    sizes.push(count(`board-size-${b.slug}`, `How many threads are there in the ${b.name} board?`, inBoard.length, `${inBoard.length} threads`, [step.link(b.name)]));
    for (const tag of d.tags.get(b.slug) ?? []) {
      const n = inBoard.filter((t) => tagList(t.tags).includes(tag)).length;
      tagged.push(count(`tagged-${b.slug}-${tag}`, `How many threads in ${b.name} are tagged "${tag}"?`, n, `${n} threads`,
        [step.link(b.name), step.select('Tag', tag), step.button('Apply filters')]));
    }
  }
  groups.push(mostReplies, d.mix(tagged));
  groups.push(d.mix(d.members).flatMap((m) => text(`joined-${m.id}`, `When did ${m.name} join the forum? Answer as YYYY-MM-DD.`, m.joined, openMember(m))));
  const unread = d.notes.filter((n) => !n.read).length;
  groups.push([count('unread', 'How many unread notifications do I have?', unread, `${unread} unread`, [step.link('Notifications')])]);
  groups.push(topVoted, latest, sizes);
  groups.push(d.mix(d.threads).flatMap((t) => text(`board-of-${t.id}`, `Which board is the thread "${t.title}" posted in?`, t.board, openThread(t))));
  groups.push(d.mix(d.threads).flatMap((t) => text(`started-${t.id}`, `On what date was the thread "${t.title}" started? Answer as YYYY-MM-DD.`, t.created.slice(0, 10), openThread(t))));
  groups.push(d.mix(d.threads).map((t) => count(`votes-${t.id}`, `How many votes does the opening post of "${t.title}" have?`, t.votes, `${t.votes} votes`, openThread(t))));
  groups.push(d.mix(d.threads).map((t) => count(`views-${t.id}`, `How many times has the thread "${t.title}" been viewed?`, t.views, `${t.views} views`, openThread(t))));
  groups.push(d.mix(d.members).flatMap((m) => text(`location-${m.id}`, `Where does ${m.name} live, according to their profile?`, m.location, openMember(m))));
  groups.push(d.mix(d.members).map((m) => count(`posts-of-${m.id}`, `How many posts has ${m.name} written?`, m.posts, `${m.posts} posts`, openMember(m))));
  groups.push(d.mix(d.members).map((m) => count(`reputation-${m.id}`, `What is ${m.name}'s reputation on the forum?`, m.reputation, `${m.reputation}`, openMember(m))));
  const member = (label: string, key: (m: MemberRow) => number | string, slug: string, instruction: string): TaskSpec[] => {
    const top = uniqueTop(d.members, key);
    return top ? text(slug, instruction, top.name, [step.link('Members'), step.select('Sort members by', label), step.button('Show members')]) : [];
  };
  groups.push([
    ...member('Most posts', (m) => m.posts, 'top-poster', 'Which member has written the most posts? Give the username.'),
    ...member('Newest members', (m) => m.joined, 'newest-member', 'Who is the newest member of the forum?'),
    ...member('Reputation', (m) => m.reputation, 'top-reputation', 'Which member has the highest reputation?'),
  ]);
  groups.push(d.mix(d.threads.filter((t) => tagList(t.tags).length >= 2)).flatMap((t) => {
    const tags = tagList(t.tags);
    return tags.every(specific) ? [{
      slug: `tags-${t.id}`, kind: 'info' as const, instruction: `What tags does the thread "${t.title}" have?`,
      verifier: { answer: answer.includes(...tags) }, oracle: [...openThread(t), step.done(tags.join(', '))],
    }] : [];
  }));
  return groups;
}
