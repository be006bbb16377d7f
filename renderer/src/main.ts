import { createPinia } from 'pinia'
import { createApp } from 'vue'
import App from './App.vue'
import { api } from './api'
import { setTitleDetail } from './composables/use-title'
import { i18n } from './i18n'
import { router } from './router'
import { useSessionStore } from './stores/session'

const app = createApp(App).use(createPinia()).use(i18n).use(router)
const session = useSessionStore()

// Browser mode: every screen but the login page needs a session.
router.beforeEach((to) => (to.meta.public || session.signedIn ? true : { path: '/login', query: { next: to.fullPath } }))
// A new screen starts without a record name; a query change (a tab) keeps it.
router.afterEach((to, from) => { if (to.path !== from.path) setTitleDetail(null) })
api.onUnauthorized = (e) => {
  if (session.desktop || router.currentRoute.value.meta.public) return
  session.logout(e.message)
  void router.push({ path: '/login', query: { next: router.currentRoute.value.fullPath } })
}
app.mount('#app')
