/** The forum's tasks: info and action generators over the site's data, each with a verifier and an oracle. @module */
import { firstIsHuman, noRow, request, roundRobin, row, step } from '../../task-kit';
import type { TaskInput, TaskSpec } from '../../template';
import { clip } from '../../layout';
import { THREADS_PER_PAGE, THREAD_SORTS, tagList, type PostRow, type ThreadRow } from './queries';
import { EMAIL_NOTIFICATIONS } from './seed';
import { SEARCH, infoTasks, loadForum, openPost, openThread, type ForumData } from './task-info';
import { THEMES } from './themes';

/** Tasks per generator in the bank (keeps the bank varied and quick to check). */
const PER_GROUP = 12;

const REPLIES = [
  'Thanks, this helped me a lot.', 'I tried this over the weekend and it worked.', 'Same question here, hoping someone knows.',
  'Great write-up, saving it for later.', 'Could you share a photo of your setup?', 'I ended up going with the cheaper option.',
  'Welcome aboard, glad you found us.', 'Happy to help if you send me a message.',
];
const EDITS = [
  'Update: solved it, thanks everyone.', 'Edit: I had the numbers wrong, it is actually twice that.', 'Never mind, found the answer in the FAQ.',
  'Correction: I meant the newer model.', 'Update: still working perfectly a month later.',
];
const NEW_TITLES = [
  'Advice needed on a {thing} for a small space', 'What I learned from my first {thing}', 'Is anyone else having trouble with the {thing}?',
  'Budget {thing} recommendations for 2026', 'Long-term review: my {thing} after one year', 'Before you buy a {thing}, read this',
];
const NEW_BODIES = [
  'I have been reading this board for a while and would love your opinions before I decide.',
  'Sharing my notes in case they help someone else. Questions welcome.',
  'Looking for honest experiences, good and bad. Thanks in advance!',
];
const SIGNATURES = ['Happy building!', 'Cheers from the workshop', 'Ask me anything, I will try to help', 'Slow and steady wins the race'];

function mine(d: ForumData, p: PostRow): boolean {
  return p.author_id === d.me.member_id;
}

/** My replies that are my only reply in their thread (so "my reply in X" names one post). */
function soleReplies(d: ForumData): Array<{ t: ThreadRow; p: PostRow }> {
  return d.threads.flatMap((t) => {
    const own = (d.posts.get(t.id) ?? []).filter((p) => p.number > 1 && mine(d, p));
    return own.length === 1 && own[0] ? [{ t, p: own[0] }] : [];
  });
}

function threadActions(d: ForumData, faker: TaskInput['faker']): TaskSpec[][] {
  const open = d.threads.filter((t) => !t.locked);
  const others = d.threads.filter((t) => t.author_id !== d.me.member_id);
  const followed = new Set(d.follows.map((f) => f.thread_id));
  const saved = new Set(d.bookmarks.map((b) => b.thread_id));
  const groups: TaskSpec[][] = [];
  groups.push(d.mix(open).map((t, i) => {
    const body = REPLIES[i % REPLIES.length] as string;
    return {
      slug: `reply-${t.id}`, kind: 'action', instruction: `Reply to the thread "${t.title}" with the message "${body}"`,
      verifier: { state: [row('posts', { thread_id: t.id, body }, { author_id: d.me.member_id })] },
      oracle: [...openThread(t), step.type('Your reply', body), step.button('Post reply'), step.done()],
    };
  }));
  groups.push(d.mix(others).flatMap((t) => {
    const first = d.posts.get(t.id)?.[0];
    if (!first || d.voted.has(first.id)) return [];
    return [{
      slug: `upvote-${t.id}`, kind: 'action' as const, instruction: `Upvote the opening post of the thread "${t.title}".`,
      verifier: { state: [row('votes', { post_id: first.id }), row('posts', { id: first.id }, { score: first.score + 1 })] },
      oracle: [...openThread(t), step.button(clip(`Upvote post #1 by ${first.author}`)), step.done()],
    }];
  }));
  groups.push(d.mix(d.threads.filter((t) => !followed.has(t.id))).map((t) => ({
    slug: `follow-${t.id}`, kind: 'action', instruction: `Follow the thread "${t.title}" so I hear about new replies.`,
    verifier: { state: [row('follows', { thread_id: t.id })] }, oracle: [...openThread(t), step.button('Follow thread'), step.done()],
  })));
  groups.push(d.mix(d.threads.filter((t) => !saved.has(t.id))).map((t) => ({
    slug: `bookmark-${t.id}`, kind: 'action', instruction: `Bookmark the thread "${t.title}".`,
    verifier: { state: [row('bookmarks', { thread_id: t.id })] }, oracle: [...openThread(t), step.button('Bookmark thread'), step.done()],
  })));
  groups.push(d.mix(soleReplies(d)).map(({ t, p }, i) => {
    const body = EDITS[i % EDITS.length] as string;
    return {
      slug: `edit-reply-${p.id}`, kind: 'action', instruction: `Edit my reply in the thread "${t.title}" so that it reads "${body}"`,
      verifier: { state: [row('posts', { id: p.id }, { body })] },
      oracle: [...openPost(d, t, p.number), step.link(`Edit post #${p.number}`), step.type('Message', body), step.button('Save changes'), step.done()],
    };
  }));
  groups.push(d.mix(soleReplies(d)).map(({ t, p }) => ({
    slug: `delete-reply-${p.id}`, kind: 'action', instruction: `Delete my reply in the thread "${t.title}".`,
    verifier: { state: [noRow('posts', { id: p.id })] }, oracle: [...openPost(d, t, p.number), step.button(`Delete post #${p.number}`), step.done()],
  })));
  const replies = d.threads.flatMap((t) => {
    const posts = d.posts.get(t.id) ?? [];
    const once = posts.filter((p) => p.number > 1 && !mine(d, p) && !d.voted.has(p.id) && posts.filter((q) => q.author_id === p.author_id).length === 1);
    return once.length ? [{ t, p: faker.helpers.arrayElement(once) }] : [];
  });
  groups.push(d.mix(replies).map(({ t, p }) => ({
    slug: `upvote-reply-${p.id}`, kind: 'action', instruction: `Upvote ${p.author}'s reply in the thread "${t.title}".`,
    verifier: { state: [row('votes', { post_id: p.id }), row('posts', { id: p.id }, { score: p.score + 1 })] },
    oracle: [...openPost(d, t, p.number), step.button(clip(`Upvote post #${p.number} by ${p.author}`)), step.done()],
  })));
  groups.push(d.threads.flatMap((t) => (d.posts.get(t.id) ?? []).filter((p) => d.voted.has(p.id)).map((p) => ({
    slug: `unvote-${p.id}`, kind: 'action' as const, instruction: `Take back my upvote on ${p.author}'s post in "${t.title}".`,
    verifier: { state: [noRow('votes', { post_id: p.id })] },
    oracle: [...openPost(d, t, p.number), step.button(clip(`Remove upvote from post #${p.number} by ${p.author}`)), step.done()],
  }))));
  groups.push(d.follows.map((f) => ({
    slug: `unfollow-${f.thread_id}`, kind: 'action', instruction: `Stop following the thread "${f.title}".`,
    verifier: { state: [noRow('follows', { thread_id: f.thread_id })] }, oracle: [step.link('Notifications'), step.button(clip(`Unfollow ${f.title}`)), step.done()],
  })));
  groups.push(d.bookmarks.map((b) => ({
    slug: `unbookmark-${b.thread_id}`, kind: 'action', instruction: `Remove my bookmark on "${b.title}".`,
    verifier: { state: [noRow('bookmarks', { thread_id: b.thread_id })] }, oracle: [step.link('Bookmarks'), step.button(clip(`Remove bookmark on ${b.title}`)), step.done()],
  })));
  return groups;
}

function ownThreadActions(d: ForumData): TaskSpec[][] {
  const own = d.threads.filter((t) => t.author_id === d.me.member_id);
  const edit = (t: ThreadRow) => [...openThread(t), step.link('Edit post #1')];
  return [
    own.map((t, i) => {
      const title = i % 2 ? `${t.title} (update inside)` : `[Solved] ${t.title}`;
      return {
        slug: `rename-${t.id}`, kind: 'action', instruction: `Rename my thread "${t.title}" to "${title}".`,
        verifier: { state: [row('threads', { id: t.id }, { title })] }, oracle: [...edit(t), step.type('Title', title), step.button('Save changes'), step.done()],
      };
    }),
    own.flatMap((t) => {
      const board = d.boards.find((b) => b.id === t.board_id);
      const fresh = (d.tags.get(board?.slug ?? '') ?? []).filter((x) => !tagList(t.tags).includes(x)).slice(0, 2);
      const tags = fresh.join(', ');
      return fresh.length === 2 ? [{
        slug: `retag-${t.id}`, kind: 'action' as const, instruction: `Change the tags on my thread "${t.title}" to "${fresh[0]}" and "${fresh[1]}".`,
        verifier: { state: [row('threads', { id: t.id }, { tags })] }, oracle: [...edit(t), step.type('Tags (comma-separated)', tags), step.button('Save changes'), step.done()],
      }] : [];
    }),
    own.map((t) => ({
      slug: `delete-thread-${t.id}`, kind: 'action', instruction: `Delete my thread "${t.title}" from the forum.`,
      verifier: { state: [noRow('threads', { id: t.id })] }, oracle: [...openThread(t), step.button('Delete thread'), step.done()],
    })),
  ];
}

function newThreads(d: ForumData, variant: number): TaskSpec[] {
  const theme = THEMES[(variant - 1) % THEMES.length] ?? THEMES[0];
  const taken = new Set(d.threads.map((t) => t.title.toLowerCase()));
  const boards = theme?.categories.flatMap((c) => c.boards) ?? [];
  return d.boards.flatMap((b, i) => NEW_TITLES.slice(0, 2).flatMap((pattern, k) => {
    const spec = boards.find((x) => x.name === b.name);
    const thing = spec?.things[(i + k) % spec.things.length] ?? 'setup';
    const title = pattern.replace('{thing}', thing);
    const [t1, t2] = (d.tags.get(b.slug) ?? []).slice(k, k + 2);
    if (taken.has(title.toLowerCase()) || !t1 || !t2) return [];
    const body = NEW_BODIES[(i + k) % NEW_BODIES.length] as string;
    const tags = `${t1}, ${t2}`;
    const way = (i * 2 + k) % 3;
    const start = way === 1 ? [step.link(b.name), step.link('Start a new thread')] : [step.link('New thread'), step.select('Board', b.name)];
    return [{
      slug: `new-thread-${b.slug}-${k}`, kind: 'action' as const,
      instruction: `Start a new thread in ${b.name} titled "${title}", tagged "${t1}" and "${t2}", with the message "${body}"`,
      // The author follows the thread they start.
      verifier: { state: [row('threads', { title }, { board_id: b.id, tags, author_id: d.me.member_id }), row('posts', { subject: title }, { body })], allow: [{ table: 'follows', op: 'create', where: { title } }] },
      oracle: [...start, step.type('Title', title), step.type('Tags (comma-separated)', tags), step.type('Message', body),
        ...(way === 0 ? [step.button('Preview')] : []), step.button('Post thread'), step.done()],
    }];
  }));
}

function accountActions(d: ForumData): TaskSpec[][] {
  const clipped = d.notes.map((n) => clip(n.subject).slice(0, 60));
  const notes = d.notes.filter((_, i) => clipped.indexOf(clipped[i] as string) === clipped.lastIndexOf(clipped[i] as string));
  const unread = notes.filter((n) => !n.read);
  const settingsTasks: TaskSpec[] = [
    ...EMAIL_NOTIFICATIONS.filter((e) => e.value !== d.me.email_notifications).map((e) => ({
      slug: `email-${e.value}`, kind: 'action' as const,
      instruction: { instant: 'Have the forum email me instantly when there is new activity.', daily: 'Switch my notification emails to a daily digest.', never: 'Stop the forum from sending me notification emails.' }[e.value],
      verifier: { state: [row('settings', { id: 1 }, { email_notifications: e.value })] },
      oracle: [step.link('Settings'), step.radio(e.text), step.button('Save settings'), step.done()],
    })),
    ...[20, 50].filter((n) => n !== d.me.posts_per_page).map((n) => ({
      slug: `per-page-${n}`, kind: 'action' as const, instruction: `Show ${n} posts per page in threads.`,
      verifier: { state: [row('settings', { id: 1 }, { posts_per_page: n })] },
      oracle: [step.link('Settings'), step.select('Posts per page', String(n)), step.button('Save settings'), step.done()],
    })),
    ...SIGNATURES.map((signature, i) => ({
      slug: `signature-${i}`, kind: 'action' as const, instruction: `Set my forum signature to "${signature}".`,
      verifier: { state: [row('settings', { id: 1 }, { signature })] },
      oracle: [step.link('Settings'), step.type('Signature', signature), step.button('Save settings'), step.done()],
    })),
    ...(d.me.show_online ? [{
      slug: 'hide-online', kind: 'action' as const, instruction: 'Hide my online status from other members.',
      verifier: { state: [row('settings', { id: 1 }, { show_online: 0 })] },
      oracle: [step.link('Settings'), step.check('Show when I am online'), step.button('Save settings'), step.done()],
    }] : []),
  ];
  return [
    settingsTasks,
    notes.map((n) => ({
      slug: `dismiss-${n.id}`, kind: 'action', instruction: `Dismiss the notification "${n.subject}".`,
      verifier: { state: [noRow('notifications', { id: n.id })] }, oracle: [step.link('Notifications'), step.button(clip(`Dismiss: ${n.subject}`)), step.done()],
    })),
    [
      ...(unread.length ? [{
        slug: 'read-all', kind: 'action' as const, instruction: 'Mark all my notifications as read.',
        verifier: { state: [noRow('notifications', { read: 0 })] }, oracle: [step.link('Notifications'), step.button('Mark all as read'), step.done()],
      }] : []),
      ...unread.map((n) => ({
        slug: `read-${n.id}`, kind: 'action' as const, instruction: `Mark the notification "${n.subject}" as read, but leave the others unread.`,
        verifier: { state: [row('notifications', { id: n.id }, { read: 1 }), ...unread.filter((x) => x.id !== n.id).map((x) => row('notifications', { id: x.id }, { read: 0 }))] },
        oracle: [step.link('Notifications'), step.button(clip(`Mark as read: ${n.subject}`)), step.done()],
      })),
    ],
  ];
}

function viewActions(d: ForumData, variant: number, href: TaskInput['href']): TaskSpec[][] {
  const phrase: Record<string, string> = { replies: 'most replies first', top: 'top voted first', newest: 'newest threads first' };
  const sorts = d.mix(d.boards.flatMap((b) => THREAD_SORTS.filter((s) => s.value !== 'latest').map((s) => ({
    slug: `sort-${b.slug}-${s.value}`, kind: 'action' as const, instruction: `Show the threads in ${b.name} with ${phrase[s.value]}.`,
    verifier: { requests: [request('GET', href(`/boards/${b.slug}`), { sort: s.value })] },
    oracle: [step.link(b.name), step.select('Sort by', s.text), step.button('Apply filters'), step.done()],
  }))));
  const tags = d.mix(d.boards.flatMap((b) => (d.tags.get(b.slug) ?? []).map((tag) => ({
    slug: `filter-${b.slug}-${tag}`, kind: 'action' as const, instruction: `List only the ${b.name} threads tagged "${tag}".`,
    verifier: { requests: [request('GET', href(`/boards/${b.slug}`), { tag })] },
    oracle: [step.link(b.name), step.select('Tag', tag), step.button('Apply filters'), step.done()],
  }))));
  const pages = d.boards.filter((b) => b.threads > THREADS_PER_PAGE).map((b) => ({
    slug: `page2-${b.slug}`, kind: 'action' as const, instruction: `Open the second page of threads in the ${b.name} board.`,
    verifier: { requests: [request('GET', href(`/boards/${b.slug}`), { page: 2 })] }, oracle: [step.link(b.name), step.link('Next page'), step.done()],
  }));
  const theme = THEMES[(variant - 1) % THEMES.length] ?? THEMES[0];
  const things = theme?.categories.flatMap((c) => c.boards.flatMap((b) => b.things.map((thing) => ({ b, thing })))) ?? [];
  const searches = d.mix(things).map(({ thing }) => ({
    slug: `search-${thing.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`, kind: 'action' as const, instruction: `Search the forum for posts about "${thing}".`,
    verifier: { requests: [request('GET', href('/search'), { q: thing })] }, oracle: [step.search(SEARCH, thing), step.done()],
  }));
  const inBoard = d.mix(things).flatMap(({ b, thing }) => {
    const board = d.boards.find((x) => x.name === b.name);
    return board ? [{
      slug: `search-in-${board.slug}-${thing.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`, kind: 'action' as const,
      instruction: `Find threads mentioning "${thing}", but only in the ${board.name} board.`,
      verifier: { requests: [request('GET', href('/search'), { q: thing, board: board.slug })] },
      oracle: [step.search(SEARCH, thing), step.select('Board', board.name), step.button('Refine search'), step.done()],
    }] : [];
  });
  const members = [['reputation', 'Reputation', 'by reputation'], ['newest', 'Newest members', 'with the newest members first'], ['name', 'Name A to Z', 'alphabetically']].map(([value, text, words]) => ({
    slug: `members-${value}`, kind: 'action' as const, instruction: `List the forum's members ${words}.`,
    verifier: { requests: [request('GET', href('/members'), { sort: value as string })] },
    oracle: [step.link('Members'), step.select('Sort members by', text as string), step.button('Show members'), step.done()],
  }));
  return [sorts, tags, [...pages, ...members], searches, inBoard];
}

/** Generates the forum's tasks (about 400 per site); the first task of the main generators is a human task. */
export function forumTasks({ db, faker, href, site }: TaskInput): TaskSpec[] {
  const d = loadForum(db, faker);
  const info = infoTasks(d);
  const [reply, upvote, follow, bookmark, editReply, deleteReply, ...moreThread] = threadActions(d, faker);
  const [settingsTasks, dismiss, readTasks] = accountActions(d);
  const human = [reply, upvote, newThreads(d, site.variant), follow, bookmark, editReply, deleteReply, settingsTasks, dismiss];
  const rest = [...moreThread, ...ownThreadActions(d), readTasks, ...viewActions(d, site.variant, href)];
  const cap = (g: TaskSpec[] | undefined): TaskSpec[] => (g ?? []).slice(0, PER_GROUP);
  return roundRobin([
    ...info.slice(0, 7).map((g) => firstIsHuman(cap(g))),
    ...human.map((g) => firstIsHuman(cap(g))),
    ...info.slice(7).map(cap),
    ...rest.map(cap),
  ]);
}
