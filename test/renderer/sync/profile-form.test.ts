// renderer/src/sync/profile-form.ts: what the engine would refuse is shown before sending; secrets are write-only
import { describe, expect, it } from 'vitest'
import {
  createParams, defaultAuthUrl, emptyProfileForm, hasChanges, profileToForm, updateParams, validateProfile, type Profile, type ProfileForm,
} from '../../../renderer/src/sync/profile-form'

const form = (over: Partial<ProfileForm> = {}): ProfileForm => ({
  name: 'miaozhen', base_url: 'https://api.cn.miaozhen.com', auth_url: '', username: 'john', client_id: 'acct', password: 'pw', client_secret: 'cs', ...over,
})
const stored: Profile = {
  profile_id: '3', name: 'miaozhen', base_url: 'https://api.cn.miaozhen.com', auth_url: 'https://api.cn.miaozhen.com', username: 'john', client_id: 'acct',
  has_password: true, has_client_secret: true, created_at: '', updated_at: '', last_pull_at: '',
}

describe('validateProfile', () => {
  it('accepts a complete form', () => {
    expect(validateProfile(form(), 'create')).toEqual({})
  })

  it('requires every field on create, both secrets included', () => {
    expect(Object.keys(validateProfile(emptyProfileForm(), 'create')).sort()).toEqual(['base_url', 'client_id', 'client_secret', 'name', 'password', 'username'])
    expect(validateProfile(form({ name: '  ' }), 'create').name).toEqual({ key: 'required' })
  })

  it('keeps the stored secrets on edit when left empty', () => {
    expect(validateProfile(form({ password: '', client_secret: '' }), 'edit')).toEqual({})
  })

  it('checks the addresses as the engine does', () => {
    expect(validateProfile(form({ base_url: 'api.cn.miaozhen.com' }), 'create').base_url).toEqual({ key: 'url' })
    expect(validateProfile(form({ base_url: 'ftp://host' }), 'create').base_url).toEqual({ key: 'url' })
    expect(validateProfile(form({ base_url: 'https://u:p@host' }), 'create').base_url).toEqual({ key: 'urlCredentials' })
    expect(validateProfile(form({ auth_url: 'https://host/?x=1' }), 'create').auth_url).toEqual({ key: 'urlQuery' })
    expect(validateProfile(form({ base_url: 'http://127.0.0.1:8080/prefix' }), 'create')).toEqual({})
  })

  it('checks lengths, control characters and unique names', () => {
    expect(validateProfile(form({ name: 'x'.repeat(101) }), 'create').name).toEqual({ key: 'tooLong', params: { max: 100 } })
    expect(validateProfile(form({ username: 'a\u0001b' }), 'create').username).toEqual({ key: 'controlChars' })
    expect(validateProfile(form({ password: 'p'.repeat(1025) }), 'create').password).toEqual({ key: 'tooLong', params: { max: 1024 } })
    expect(validateProfile(form({ name: 'staging ' }), 'create', ['staging']).name).toEqual({ key: 'nameTaken' })
  })
})

describe('profile parameters', () => {
  it('defaults auth_url to the origin of base_url', () => {
    expect(defaultAuthUrl('https://api.example.cn/prefix/v1')).toBe('https://api.example.cn')
    expect(defaultAuthUrl('not a url')).toBe('')
    expect(createParams(form())).not.toHaveProperty('auth_url')
    expect(createParams(form({ auth_url: ' https://auth.example.cn ' })).auth_url).toBe('https://auth.example.cn')
  })

  it('starts an edit with empty secrets and the default auth_url empty', () => {
    expect(profileToForm(stored)).toMatchObject({ auth_url: '', password: '', client_secret: '' })
    expect(profileToForm({ ...stored, auth_url: 'https://auth.example.cn' }).auth_url).toBe('https://auth.example.cn')
  })

  it('sends only what changed, and a secret only when typed', () => {
    const same = updateParams(stored, profileToForm(stored))
    expect(same).toEqual({ profile_id: '3' })
    expect(hasChanges(same)).toBe(false)
    expect(updateParams(stored, { ...profileToForm(stored), username: 'jane', password: 'new' })).toEqual({ profile_id: '3', username: 'jane', password: 'new' })
  })

  it('sends the default auth_url of a new base_url, and a custom one as typed', () => {
    expect(updateParams(stored, { ...profileToForm(stored), base_url: 'https://staging.example.cn/api' }))
      .toEqual({ profile_id: '3', base_url: 'https://staging.example.cn/api', auth_url: 'https://staging.example.cn' })
    expect(updateParams({ ...stored, auth_url: 'https://auth.example.cn' }, { ...profileToForm(stored), auth_url: '' }))
      .toEqual({ profile_id: '3', auth_url: 'https://api.cn.miaozhen.com' })
  })
})
