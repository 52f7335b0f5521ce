/** What other features may use of profile: saving the user's own profile fields. */
export { saveProfileFields } from './profile-writes';
