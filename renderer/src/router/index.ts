/**
 * Routes of the app. Hash history works the same from file:// (desktop) and from the HTTP door.
 * Each route names its title key (window title, STYLE: "a window title that says where you are").
 */
import { createRouter, createWebHashHistory, type RouteRecordRaw } from 'vue-router'

declare module 'vue-router' {
  interface RouteMeta {
    /** i18n key of the screen's name, for the window title. */
    title?: string
    /** Reachable without signing in. */
    public?: boolean
  }
}

export const routes: RouteRecordRaw[] = [
  { path: '/', redirect: '/campaigns' },
  { path: '/login', name: 'login', component: () => import('../views/login/index.vue'), meta: { title: 'login.title', public: true } },
  { path: '/campaigns', name: 'campaigns', component: () => import('../views/campaigns/index.vue'), meta: { title: 'common.nav.campaigns' } },
  { path: '/campaigns/new', name: 'campaign-new', component: () => import('../views/campaign-form/index.vue'), meta: { title: 'campaigns.newTitle' } },
  { path: '/campaigns/:id/edit', name: 'campaign-edit', component: () => import('../views/campaign-form/index.vue'), meta: { title: 'campaigns.editTitle' } },
  { path: '/campaigns/:id', name: 'campaign', component: () => import('../views/campaign/index.vue'), meta: { title: 'campaign.title' } },
  { path: '/campaigns/:id/reports', name: 'reports', component: () => import('../views/reports/index.vue'), meta: { title: 'common.nav.reports' } },
  { path: '/sync', name: 'sync', component: () => import('../views/sync/index.vue'), meta: { title: 'common.nav.sync' } },
  { path: '/server', name: 'server', component: () => import('../views/server/index.vue'), meta: { title: 'common.nav.server' } },
  { path: '/:rest(.*)*', redirect: '/campaigns' },
]

export const router = createRouter({ history: createWebHashHistory(), routes })
