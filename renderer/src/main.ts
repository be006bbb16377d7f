import { createApp } from 'vue'
import App from './App.vue'
import { ApiClient } from './api/client'
import { defaultTransport } from './api/transport'

createApp(App, { client: new ApiClient(defaultTransport()) }).mount('#app')
