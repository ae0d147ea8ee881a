export { nftExchangeArea } from './service';
